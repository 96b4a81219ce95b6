-- PostgreSQL twin of migrations/0011_runs_finished.sql.
-- The change feed (TrendHunter's moves across a set, the watch digest) reads the changes of runs
-- that completed in the last day or week, across every comparison: found by finish time here
-- instead of a scan of every run kept (HISTORY_KEEP per comparison).
CREATE INDEX runs_finished ON runs(finished_at) WHERE status = 'completed';
