-- PostgreSQL twin of migrations/0020_jobs.sql. Epoch milliseconds outgrow integer: BIGINT here
-- (the handle reads int8 back as a number). payload stays text, as in SQLite, so a repository
-- reads the same string on both (dialect.jsonText reads into it).
-- Jobs in the database: work that must survive a restart (alert deliveries, digests) is a row a
-- worker claims under a lease. Written to move to PostgreSQL unchanged bar the types noted
-- (docs/decisions/0019-jobs-in-the-database.md): times are epoch milliseconds (BIGINT there),
-- payload is JSON text (JSONB there), and nothing below uses an SQLite-only function.
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  -- Whose work it is: the claim takes owners in turn, so one user's burst cannot starve another.
  -- NULL is the installation's own work, one more owner in the rotation.
  owner_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  -- queued: waiting for run_at; running: leased; failed: an attempt failed, retried at run_at;
  -- done; dead: out of attempts, kept for the console to list and retry.
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1),
  run_at BIGINT NOT NULL,
  leased_by TEXT,
  lease_until BIGINT,
  -- Order of claims across the whole table; an owner's latest is where the owner stands in the rotation.
  claim_seq BIGINT,
  last_error TEXT,
  -- At most one live (queued, running or failed) job per key: enqueueing the same work twice is a no-op.
  dedupe_key TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX jobs_due ON jobs(state, run_at, kind, owner_id);
CREATE INDEX jobs_owner_due ON jobs(owner_id, state, run_at);
CREATE INDEX jobs_owner_claims ON jobs(owner_id, claim_seq);
CREATE INDEX jobs_claim_seq ON jobs(claim_seq);
CREATE INDEX jobs_updated ON jobs(state, updated_at);
CREATE UNIQUE INDEX jobs_dedupe ON jobs(dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running', 'failed');
