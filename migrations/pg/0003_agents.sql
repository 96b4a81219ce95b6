-- PostgreSQL twin of migrations/0003_agents.sql.
-- Mission Control: the four agents, what they produce (trends, generated components, A/B
-- experiments, predictions) and the activity log every module writes to.
-- owner_id NULL means "built from shared data" (the product's own tokens, aggregates) and is
-- visible to every signed-in user; otherwise the row is the owner's (and admins').

CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL CHECK (type IN ('trend_detection', 'component_generation', 'testing', 'analytics')),
  status TEXT NOT NULL DEFAULT 'stopped' CHECK (status IN ('active', 'idle', 'error', 'stopped')),
  current_task TEXT,
  tasks_completed INTEGER NOT NULL DEFAULT 0,
  accuracy DOUBLE PRECISION,
  confidence DOUBLE PRECISION,
  metadata TEXT NOT NULL DEFAULT '{}',
  last_activity TEXT
);
INSERT INTO agents (id, name, type, metadata) VALUES
  ('trend-hunter', 'TrendHunter', 'trend_detection', '{"does":"Mines captured sites and findings for shared design patterns"}'),
  ('design-ninja', 'DesignNinja', 'component_generation', '{"does":"Generates React components from captured design tokens"}'),
  ('test-commander', 'TestCommander', 'testing', '{"does":"Runs A/B tests between generated variants"}'),
  ('insight-oracle', 'InsightOracle', 'analytics', '{"does":"Predicts test winners and scores itself"}');

CREATE TABLE trends (
  id TEXT PRIMARY KEY,
  pattern_key TEXT NOT NULL UNIQUE,
  category TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  support INTEGER NOT NULL,
  sample_size INTEGER NOT NULL,
  share DOUBLE PRECISION NOT NULL,
  direction TEXT CHECK (direction IN ('rising', 'falling', 'steady')),
  direction_basis TEXT NOT NULL DEFAULT '{}',
  confidence DOUBLE PRECISION NOT NULL,
  strong BOOLEAN NOT NULL DEFAULT FALSE,
  -- JSON [{host, comparisonId, ownerId, snapshotId, capturedAt}]; filtered per viewer on read.
  evidence TEXT NOT NULL,
  active BOOLEAN NOT NULL DEFAULT TRUE,
  discovered_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX trends_active ON trends(active, discovered_at);

CREATE TABLE components (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('hero', 'cta_button', 'pricing_card', 'navbar')),
  variant TEXT NOT NULL CHECK (variant IN ('A', 'B')),
  style TEXT NOT NULL,
  name TEXT NOT NULL,
  file_name TEXT NOT NULL,
  source_label TEXT NOT NULL,
  -- One kit per site per owner ("owner:host"), or 'default' for the product's own tokens.
  source_key TEXT NOT NULL,
  snapshot_id TEXT REFERENCES snapshots(id) ON DELETE SET NULL,
  owner_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  tokens TEXT NOT NULL,
  features TEXT NOT NULL,
  code TEXT NOT NULL,
  preview_html TEXT NOT NULL,
  compiled BOOLEAN NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (source_key, kind, variant)
);
CREATE INDEX components_created ON components(created_at);
CREATE INDEX components_owner ON components(owner_id, created_at);

CREATE TABLE experiments (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  source_key TEXT NOT NULL,
  source_label TEXT NOT NULL,
  owner_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed')),
  -- Decided by the first traffic: real events (ingest endpoint) or the seeded simulator, never both.
  traffic TEXT NOT NULL DEFAULT 'pending' CHECK (traffic IN ('pending', 'real', 'simulated')),
  ingest_key TEXT NOT NULL,
  planned_per_variant INTEGER NOT NULL,
  alpha DOUBLE PRECISION NOT NULL,
  sim_seed INTEGER NOT NULL,
  sim_batches INTEGER NOT NULL DEFAULT 0,
  winner_variant_id TEXT,
  result TEXT,
  started_at TEXT NOT NULL,
  completed_at TEXT,
  UNIQUE (source_key, kind)
);
CREATE INDEX experiments_status ON experiments(status, started_at);
CREATE INDEX experiments_completed ON experiments(status, completed_at);

CREATE TABLE experiment_variants (
  id TEXT PRIMARY KEY,
  experiment_id TEXT NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  label TEXT NOT NULL CHECK (label IN ('A', 'B')),
  component_id TEXT REFERENCES components(id) ON DELETE SET NULL,
  name TEXT NOT NULL,
  impressions INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0,
  -- The simulator's true conversion rate; only set on simulated tests.
  sim_rate DOUBLE PRECISION,
  UNIQUE (experiment_id, label)
);

-- Traffic per minute, so "tests and conversions over time" is a GROUP BY and not a log scan.
CREATE TABLE experiment_traffic (
  experiment_id TEXT NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  variant_id TEXT NOT NULL REFERENCES experiment_variants(id) ON DELETE CASCADE,
  bucket TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('real', 'simulated')),
  impressions INTEGER NOT NULL DEFAULT 0,
  conversions INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (experiment_id, variant_id, bucket, source)
);
CREATE INDEX experiment_traffic_bucket ON experiment_traffic(bucket);

CREATE TABLE predictions (
  id TEXT PRIMARY KEY,
  experiment_id TEXT NOT NULL UNIQUE REFERENCES experiments(id) ON DELETE CASCADE,
  predicted_variant_id TEXT NOT NULL,
  predicted_label TEXT NOT NULL CHECK (predicted_label IN ('A', 'B')),
  probability DOUBLE PRECISION NOT NULL,
  features TEXT NOT NULL,
  -- NULL while the test runs; 'undecided' when it ended without a significant winner.
  outcome TEXT CHECK (outcome IN ('correct', 'wrong', 'undecided')),
  created_at TEXT NOT NULL,
  scored_at TEXT
);
CREATE INDEX predictions_scored ON predictions(outcome, scored_at);

CREATE TABLE activity_log (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL CHECK (type IN ('trend', 'component', 'test', 'system', 'comparison')),
  message TEXT NOT NULL,
  details TEXT,
  status TEXT NOT NULL CHECK (status IN ('success', 'error', 'warning', 'info')),
  agent_name TEXT,
  metadata TEXT NOT NULL DEFAULT '{}',
  -- NULL: visible to every signed-in user. Set: the owner's (comparison entries) and admins'.
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);
CREATE INDEX activity_created ON activity_log(created_at, id);
CREATE INDEX activity_user ON activity_log(user_id, created_at);
