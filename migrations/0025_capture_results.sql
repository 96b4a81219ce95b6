-- Captures run as jobs (kinds `capture` and `capture.time`) that any worker claims: the worker writes
-- the page's answer here, keyed by its job, before the job is marked done, and the instance driving
-- the run reads it once told (NOTIFY on PostgreSQL, a poll on SQLite) and deletes it. A second
-- attempt after a lost lease overwrites the first's row. Rows nobody read are pruned after a day.
CREATE TABLE capture_results (
  job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  -- The answer as JSON (src/modules/capture-jobs/model.ts); never a secret or a session in plain text.
  result TEXT NOT NULL,
  -- The login's session (cookies, localStorage) the capture handed back, sealed with the app secret.
  sealed TEXT,
  -- The screenshot's temporary object in the blob store, deleted with the row.
  blob_key TEXT,
  -- Epoch milliseconds.
  created_at INTEGER NOT NULL
);
CREATE INDEX capture_results_created ON capture_results(created_at);
