-- PostgreSQL twin of migrations/0002_comparisons.sql.
-- Comparisons: a user's set of competitor websites, their captures (snapshots), the pairwise
-- similarity scores (diffs) and the evidence-backed findings of the latest run.
-- Every row carries owner_id so each read filters by owner in one place, without joins.
CREATE TABLE comparisons (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  error TEXT,
  progress_done INTEGER,
  progress_total INTEGER,
  progress_stage TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  completed_at TEXT
);
CREATE INDEX comparisons_owner ON comparisons(owner_id, created_at);
CREATE INDEX comparisons_status ON comparisons(status);

CREATE TABLE targets (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  url TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'capturing', 'completed', 'failed')),
  error TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX targets_comparison ON targets(comparison_id, created_at);

CREATE TABLE snapshots (
  id TEXT PRIMARY KEY,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  viewport TEXT NOT NULL CHECK (viewport IN ('desktop', 'mobile')),
  captured_at TEXT NOT NULL,
  -- Relative to DATA_DIR, so a moved data directory keeps working.
  screenshot_path TEXT NOT NULL,
  title TEXT NOT NULL,
  colors TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  extraction TEXT NOT NULL
);
CREATE INDEX snapshots_latest ON snapshots(target_id, viewport, captured_at);
CREATE INDEX snapshots_comparison ON snapshots(comparison_id);

CREATE TABLE diffs (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  viewport TEXT NOT NULL CHECK (viewport IN ('desktop', 'mobile')),
  target_a_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  target_b_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  color_similarity DOUBLE PRECISION NOT NULL,
  layout_similarity DOUBLE PRECISION NOT NULL,
  content_similarity DOUBLE PRECISION NOT NULL,
  overall_similarity DOUBLE PRECISION NOT NULL,
  components TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX diffs_comparison ON diffs(comparison_id);

CREATE TABLE findings (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  viewport TEXT NOT NULL CHECK (viewport IN ('desktop', 'mobile')),
  grp TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('high', 'medium', 'low')),
  title TEXT NOT NULL,
  evidence TEXT NOT NULL,
  fix TEXT NOT NULL,
  source TEXT NOT NULL,
  -- The analyser's ordering (most important first) survives the round trip.
  position INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX findings_comparison ON findings(comparison_id, position);
