-- PostgreSQL twin of migrations/0008_runs.sql.
-- Run history (issue 11): every run of a comparison is kept with its snapshots, scores and
-- findings, so any past run opens as it was. Until now each run replaced the last one's diffs and
-- findings and kept 3 captures per target; those results become run #1 of their comparison.
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- 1, 2, 3 … per comparison; never reused, so "run #12" keeps meaning the same run.
  number INTEGER NOT NULL,
  trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'schedule')),
  -- interrupted: a restart ended it; its results were never written, so it does not replace the
  -- previous run's as the comparison's current results.
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
  started_at TEXT NOT NULL,
  finished_at TEXT,
  -- Changes found against the previous completed run; NULL until computed, or when there is none.
  change_count INTEGER,
  error TEXT,
  UNIQUE (comparison_id, number)
);
CREATE INDEX runs_owner ON runs(owner_id);

ALTER TABLE snapshots ADD COLUMN run_id TEXT REFERENCES runs(id) ON DELETE CASCADE;
-- Identical screenshots are one file named by this hash; a file goes when no row names it.
ALTER TABLE snapshots ADD COLUMN content_hash TEXT;
ALTER TABLE snapshots ADD COLUMN file_bytes INTEGER;
ALTER TABLE diffs ADD COLUMN run_id TEXT REFERENCES runs(id) ON DELETE CASCADE;
ALTER TABLE findings ADD COLUMN run_id TEXT REFERENCES runs(id) ON DELETE CASCADE;
CREATE INDEX snapshots_run ON snapshots(run_id, target_id, viewport);
CREATE INDEX snapshots_path ON snapshots(screenshot_path);
CREATE INDEX diffs_run ON diffs(run_id);
CREATE INDEX findings_run ON findings(run_id, position);

-- The design-meaning changes of a target between a run and the completed run before it, found
-- when the run completed (see src/modules/history/detect.ts).
CREATE TABLE run_changes (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  from_run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  viewport TEXT NOT NULL CHECK (viewport IN ('desktop', 'mobile')),
  kind TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
  summary TEXT NOT NULL,
  before TEXT,
  after TEXT,
  evidence TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX run_changes_run ON run_changes(run_id, from_run_id, target_id, position);

-- Existing results become run #1 of their comparison. The id is derived from the comparison's
-- (already unique) so the statements below can find it. A Postgres database is always created by
-- these migrations and filled after them, so here the backfill finds no row and changes nothing;
-- it is kept, in SQL both dialects read alike, so the twins stay line for line.
INSERT INTO runs (id, comparison_id, owner_id, number, trigger, status, started_at, finished_at, error)
  SELECT 'r1-' || c.id, c.id, c.owner_id, 1, 'manual',
         CASE c.status WHEN 'pending' THEN 'failed' ELSE c.status END,
         COALESCE(c.started_at, c.created_at), c.completed_at, c.error
    FROM comparisons c
   WHERE c.started_at IS NOT NULL
      OR EXISTS (SELECT 1 FROM snapshots s WHERE s.comparison_id = c.id)
      OR EXISTS (SELECT 1 FROM diffs d WHERE d.comparison_id = c.id)
      OR EXISTS (SELECT 1 FROM findings f WHERE f.comparison_id = c.id);
UPDATE snapshots SET run_id = 'r1-' || comparison_id;
UPDATE diffs SET run_id = 'r1-' || comparison_id;
UPDATE findings SET run_id = 'r1-' || comparison_id;
