-- The instance driving a run (its state machine lives in that process). With several instances on
-- one database, a run whose driver stopped (its `run-driver:<instance>` lease ran out) is failed by
-- the others with that reason; null for runs of the embedded server, which is one process.
ALTER TABLE runs ADD COLUMN driver TEXT;
