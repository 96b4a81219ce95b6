-- PostgreSQL twin of migrations/0005_watch_schedules.sql.
-- Competitor watch: a comparison may carry one cron schedule (5 fields, read in an IANA zone).
-- next_run_at is stored, not recomputed, so a slot missed while the server was down is still due
-- at boot (and runs once: the next slot is then computed from the boot time, not from the miss).
CREATE TABLE comparison_schedules (
  comparison_id TEXT PRIMARY KEY REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  next_run_at TEXT,
  last_run_at TEXT,
  -- Why the last due slot did not start a run (previous run still going, start refused), for the UI.
  last_skip_at TEXT,
  last_skip_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX comparison_schedules_due ON comparison_schedules(next_run_at);
CREATE INDEX comparison_schedules_owner ON comparison_schedules(owner_id);
