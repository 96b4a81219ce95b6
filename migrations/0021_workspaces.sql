-- Workspaces (issue 31): the team is the unit of work. Every comparison and everything under it,
-- every schedule, alert, job and agent output belongs to a workspace; `owner_id` keeps its name and
-- now names the owning workspace (decision 0022). A user's personal workspace shares the user's id,
-- so every row owned before workspaces existed is already in its owner's personal workspace: no
-- row moves, and none can be lost.
--
-- SQLite cannot change a foreign key in place, so each table whose owner referenced users is
-- rebuilt with the same columns, rows, indexes and triggers, its owner now referencing workspaces
-- (the runner applies this migration with foreign keys off and checks them all before committing).
-- pragma: foreign_keys=off

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- Set on a personal workspace: its user (whose id it shares). It cannot be deleted or handed over.
  personal_user_id TEXT UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);

CREATE TABLE workspace_members (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
  -- Whether the member receives the workspace's alerts and digests.
  alerts INTEGER NOT NULL DEFAULT 1,
  joined_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members(user_id);

-- An invitation by link or e-mail. Only the SHA-256 of its token is kept.
CREATE TABLE workspace_invitations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
  email TEXT COLLATE NOCASE,
  token_hash TEXT NOT NULL UNIQUE,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  accepted_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  revoked_at TEXT
);
CREATE INDEX workspace_invitations_workspace ON workspace_invitations(workspace_id, created_at);

INSERT INTO workspaces (id, name, personal_user_id, created_at) SELECT id, 'Personal', id, created_at FROM users;
INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) SELECT id, id, 'owner', created_at FROM users;

CREATE TRIGGER users_personal_workspace AFTER INSERT ON users
BEGIN
  INSERT INTO workspaces (id, name, personal_user_id, created_at) VALUES (NEW.id, 'Personal', NEW.id, NEW.created_at);
  INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES (NEW.id, NEW.id, 'owner', NEW.created_at);
END;

-- The workspace a user last chose: the current one when a request names none.
ALTER TABLE users ADD COLUMN last_workspace_id TEXT REFERENCES workspaces(id) ON DELETE SET NULL;

-- An API key is bound to one workspace; existing keys to their user's personal one.
ALTER TABLE api_keys ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
UPDATE api_keys SET workspace_id = user_id;

-- Audit per workspace: NULL for the operator's own entries (settings, users, backups).
ALTER TABLE audit_log ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
CREATE INDEX audit_log_workspace ON audit_log(workspace_id, created_at);

DROP TRIGGER targets_home_page;

-- comparisons
CREATE TABLE comparisons_next (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
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
, consent TEXT NOT NULL DEFAULT 'reject' CHECK (consent IN ('reject', 'accept', 'keep')), color_schemes TEXT NOT NULL DEFAULT '["light"]');
INSERT INTO comparisons_next (id, owner_id, name, description, status, error, progress_done, progress_total, progress_stage, created_at, updated_at, started_at, completed_at, consent, color_schemes) SELECT id, owner_id, name, description, status, error, progress_done, progress_total, progress_stage, created_at, updated_at, started_at, completed_at, consent, color_schemes FROM comparisons;
DROP TABLE comparisons;
ALTER TABLE comparisons_next RENAME TO comparisons;
CREATE INDEX comparisons_owner ON comparisons(owner_id, created_at);
CREATE INDEX comparisons_status ON comparisons(status);

-- targets
CREATE TABLE targets_next (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  url TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'capturing', 'completed', 'failed')),
  error TEXT,
  created_at TEXT NOT NULL
);
INSERT INTO targets_next (id, comparison_id, owner_id, label, url, status, error, created_at) SELECT id, comparison_id, owner_id, label, url, status, error, created_at FROM targets;
DROP TABLE targets;
ALTER TABLE targets_next RENAME TO targets;
CREATE INDEX targets_comparison ON targets(comparison_id, created_at);
CREATE INDEX targets_owner_url ON targets(owner_id, url);

-- snapshots
CREATE TABLE snapshots_next (
  id TEXT PRIMARY KEY,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  viewport TEXT NOT NULL CHECK (viewport IN ('desktop', 'mobile')),
  captured_at TEXT NOT NULL,
  -- Relative to DATA_DIR, so a moved data directory keeps working.
  screenshot_path TEXT NOT NULL,
  title TEXT NOT NULL,
  colors TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  extraction TEXT NOT NULL
, run_id TEXT REFERENCES runs(id) ON DELETE CASCADE, content_hash TEXT, file_bytes INTEGER, page_id TEXT REFERENCES pages(id) ON DELETE CASCADE, color_scheme TEXT NOT NULL DEFAULT 'light' CHECK (color_scheme IN ('light', 'dark')), step TEXT);
INSERT INTO snapshots_next (id, target_id, comparison_id, owner_id, viewport, captured_at, screenshot_path, title, colors, width, height, extraction, run_id, content_hash, file_bytes, page_id, color_scheme, step) SELECT id, target_id, comparison_id, owner_id, viewport, captured_at, screenshot_path, title, colors, width, height, extraction, run_id, content_hash, file_bytes, page_id, color_scheme, step FROM snapshots;
DROP TABLE snapshots;
ALTER TABLE snapshots_next RENAME TO snapshots;
CREATE INDEX snapshots_latest ON snapshots(target_id, viewport, captured_at);
CREATE INDEX snapshots_comparison ON snapshots(comparison_id);
CREATE INDEX snapshots_run ON snapshots(run_id, target_id, viewport);
CREATE INDEX snapshots_path ON snapshots(screenshot_path);
CREATE INDEX snapshots_page_latest ON snapshots(page_id, viewport, color_scheme, captured_at);

-- diffs
CREATE TABLE diffs_next (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  viewport TEXT NOT NULL CHECK (viewport IN ('desktop', 'mobile')),
  target_a_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  target_b_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  color_similarity REAL NOT NULL,
  layout_similarity REAL NOT NULL,
  content_similarity REAL NOT NULL,
  overall_similarity REAL NOT NULL,
  components TEXT NOT NULL,
  created_at TEXT NOT NULL
, run_id TEXT REFERENCES runs(id) ON DELETE CASCADE, role TEXT NOT NULL DEFAULT 'home' CHECK (role IN ('home', 'pricing', 'features', 'signup', 'blog', 'docs', 'other')), color_scheme TEXT NOT NULL DEFAULT 'light' CHECK (color_scheme IN ('light', 'dark')), page_a_id TEXT REFERENCES pages(id) ON DELETE CASCADE, page_b_id TEXT REFERENCES pages(id) ON DELETE CASCADE);
INSERT INTO diffs_next (id, comparison_id, owner_id, viewport, target_a_id, target_b_id, color_similarity, layout_similarity, content_similarity, overall_similarity, components, created_at, run_id, role, color_scheme, page_a_id, page_b_id) SELECT id, comparison_id, owner_id, viewport, target_a_id, target_b_id, color_similarity, layout_similarity, content_similarity, overall_similarity, components, created_at, run_id, role, color_scheme, page_a_id, page_b_id FROM diffs;
DROP TABLE diffs;
ALTER TABLE diffs_next RENAME TO diffs;
CREATE INDEX diffs_comparison ON diffs(comparison_id);
CREATE INDEX diffs_run ON diffs(run_id);

-- findings
CREATE TABLE findings_next (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
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
, run_id TEXT REFERENCES runs(id) ON DELETE CASCADE, rule TEXT, page_id TEXT REFERENCES pages(id) ON DELETE CASCADE, color_scheme TEXT NOT NULL DEFAULT 'light' CHECK (color_scheme IN ('light', 'dark')));
INSERT INTO findings_next (id, comparison_id, owner_id, target_id, viewport, grp, severity, title, evidence, fix, source, position, created_at, run_id, rule, page_id, color_scheme) SELECT id, comparison_id, owner_id, target_id, viewport, grp, severity, title, evidence, fix, source, position, created_at, run_id, rule, page_id, color_scheme FROM findings;
DROP TABLE findings;
ALTER TABLE findings_next RENAME TO findings;
CREATE INDEX findings_comparison ON findings(comparison_id, position);
CREATE INDEX findings_run ON findings(run_id, position);

-- components
CREATE TABLE components_next (
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
  owner_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
  tokens TEXT NOT NULL,
  features TEXT NOT NULL,
  code TEXT NOT NULL,
  preview_html TEXT NOT NULL,
  compiled INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (source_key, kind, variant)
);
INSERT INTO components_next (id, kind, variant, style, name, file_name, source_label, source_key, snapshot_id, owner_id, tokens, features, code, preview_html, compiled, created_at) SELECT id, kind, variant, style, name, file_name, source_label, source_key, snapshot_id, owner_id, tokens, features, code, preview_html, compiled, created_at FROM components;
DROP TABLE components;
ALTER TABLE components_next RENAME TO components;
CREATE INDEX components_created ON components(created_at);
CREATE INDEX components_owner ON components(owner_id, created_at);

-- experiments
CREATE TABLE experiments_next (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  source_key TEXT NOT NULL,
  source_label TEXT NOT NULL,
  owner_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed')),
  -- Decided by the first traffic: real events (ingest endpoint) or the seeded simulator, never both.
  traffic TEXT NOT NULL DEFAULT 'pending' CHECK (traffic IN ('pending', 'real', 'simulated')),
  ingest_key TEXT NOT NULL,
  planned_per_variant INTEGER NOT NULL,
  alpha REAL NOT NULL,
  sim_seed INTEGER NOT NULL,
  sim_batches INTEGER NOT NULL DEFAULT 0,
  winner_variant_id TEXT,
  result TEXT,
  started_at TEXT NOT NULL,
  completed_at TEXT,
  UNIQUE (source_key, kind)
);
INSERT INTO experiments_next (id, name, kind, source_key, source_label, owner_id, status, traffic, ingest_key, planned_per_variant, alpha, sim_seed, sim_batches, winner_variant_id, result, started_at, completed_at) SELECT id, name, kind, source_key, source_label, owner_id, status, traffic, ingest_key, planned_per_variant, alpha, sim_seed, sim_batches, winner_variant_id, result, started_at, completed_at FROM experiments;
DROP TABLE experiments;
ALTER TABLE experiments_next RENAME TO experiments;
CREATE INDEX experiments_status ON experiments(status, started_at);
CREATE INDEX experiments_completed ON experiments(status, completed_at);

-- comparison_schedules
CREATE TABLE comparison_schedules_next (
  comparison_id TEXT PRIMARY KEY REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
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
INSERT INTO comparison_schedules_next (comparison_id, owner_id, cron, timezone, next_run_at, last_run_at, last_skip_at, last_skip_reason, created_at, updated_at) SELECT comparison_id, owner_id, cron, timezone, next_run_at, last_run_at, last_skip_at, last_skip_reason, created_at, updated_at FROM comparison_schedules;
DROP TABLE comparison_schedules;
ALTER TABLE comparison_schedules_next RENAME TO comparison_schedules;
CREATE INDEX comparison_schedules_due ON comparison_schedules(next_run_at);
CREATE INDEX comparison_schedules_owner ON comparison_schedules(owner_id);

-- alert_rules
CREATE TABLE alert_rules_next (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  channel TEXT NOT NULL CHECK (channel IN ('webhook', 'email')),
  -- The webhook URL or the e-mail address.
  destination TEXT NOT NULL,
  min_severity TEXT NOT NULL DEFAULT 'low' CHECK (min_severity IN ('low', 'medium', 'high')),
  -- JSON array of change kinds; empty means every kind.
  kinds TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL
);
INSERT INTO alert_rules_next (id, comparison_id, owner_id, channel, destination, min_severity, kinds, created_at) SELECT id, comparison_id, owner_id, channel, destination, min_severity, kinds, created_at FROM alert_rules;
DROP TABLE alert_rules;
ALTER TABLE alert_rules_next RENAME TO alert_rules;
CREATE INDEX alert_rules_comparison ON alert_rules(comparison_id, created_at);

-- alert_deliveries
CREATE TABLE alert_deliveries_next (
  id TEXT PRIMARY KEY,
  alert_id TEXT NOT NULL REFERENCES alert_rules(id) ON DELETE CASCADE,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  -- The run whose changes were sent (runs may be pruned by retention; the log keeps the id).
  run_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('sent', 'failed')),
  attempts INTEGER NOT NULL,
  last_error TEXT,
  sent_at TEXT,
  created_at TEXT NOT NULL
);
INSERT INTO alert_deliveries_next (id, alert_id, comparison_id, owner_id, run_id, status, attempts, last_error, sent_at, created_at) SELECT id, alert_id, comparison_id, owner_id, run_id, status, attempts, last_error, sent_at, created_at FROM alert_deliveries;
DROP TABLE alert_deliveries;
ALTER TABLE alert_deliveries_next RENAME TO alert_deliveries;
CREATE INDEX alert_deliveries_comparison ON alert_deliveries(comparison_id, created_at);

-- runs
CREATE TABLE runs_next (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
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
INSERT INTO runs_next (id, comparison_id, owner_id, number, trigger, status, started_at, finished_at, change_count, error) SELECT id, comparison_id, owner_id, number, trigger, status, started_at, finished_at, change_count, error FROM runs;
DROP TABLE runs;
ALTER TABLE runs_next RENAME TO runs;
CREATE INDEX runs_owner ON runs(owner_id);
CREATE INDEX runs_finished ON runs(finished_at) WHERE status = 'completed';

-- run_changes
CREATE TABLE run_changes_next (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  from_run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  viewport TEXT NOT NULL CHECK (viewport IN ('desktop', 'mobile')),
  kind TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
  summary TEXT NOT NULL,
  before TEXT,
  after TEXT,
  evidence TEXT NOT NULL,
  position INTEGER NOT NULL
, page_id TEXT REFERENCES pages(id) ON DELETE CASCADE, color_scheme TEXT NOT NULL DEFAULT 'light' CHECK (color_scheme IN ('light', 'dark')), role TEXT, path TEXT);
INSERT INTO run_changes_next (id, run_id, from_run_id, comparison_id, owner_id, target_id, viewport, kind, severity, summary, before, after, evidence, position, page_id, color_scheme, role, path) SELECT id, run_id, from_run_id, comparison_id, owner_id, target_id, viewport, kind, severity, summary, before, after, evidence, position, page_id, color_scheme, role, path FROM run_changes;
DROP TABLE run_changes;
ALTER TABLE run_changes_next RENAME TO run_changes;
CREATE INDEX run_changes_run ON run_changes(run_id, from_run_id, target_id, position);

-- pages
CREATE TABLE pages_next (
  id TEXT PRIMARY KEY,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  -- Path, query and fragment on the target's origin ("/pricing?plan=team").
  path TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('home', 'pricing', 'features', 'signup', 'blog', 'docs', 'other')),
  -- The steps a capture takes on the page before it measures it (JSON array; capture/steps/model.ts).
  steps TEXT NOT NULL DEFAULT '[]',
  -- 0 is the site's home page (made with the target, never deleted); then in the order added.
  position INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
INSERT INTO pages_next (id, target_id, comparison_id, owner_id, path, role, steps, position, created_at) SELECT id, target_id, comparison_id, owner_id, path, role, steps, position, created_at FROM pages;
DROP TABLE pages;
ALTER TABLE pages_next RENAME TO pages;
CREATE INDEX pages_target ON pages(target_id, position);
CREATE INDEX pages_owner ON pages(owner_id);

-- run_page_sets
CREATE TABLE run_page_sets_next (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  -- JSON arrays of { path, role }; NULL when that source could not be read in full in that run
  -- (nothing is compared with it, so a half-read sitemap reports no page as removed).
  nav TEXT,
  sitemap TEXT,
  listed_at TEXT NOT NULL,
  PRIMARY KEY (run_id, target_id)
);
INSERT INTO run_page_sets_next (run_id, target_id, owner_id, nav, sitemap, listed_at) SELECT run_id, target_id, owner_id, nav, sitemap, listed_at FROM run_page_sets;
DROP TABLE run_page_sets;
ALTER TABLE run_page_sets_next RENAME TO run_page_sets;
CREATE INDEX run_page_sets_owner ON run_page_sets(owner_id);

-- jobs
CREATE TABLE jobs_next (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  -- Whose work it is: the claim takes owners in turn, so one user's burst cannot starve another.
  -- NULL is the installation's own work, one more owner in the rotation.
  owner_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
  -- queued: waiting for run_at; running: leased; failed: an attempt failed, retried at run_at;
  -- done; dead: out of attempts, kept for the console to list and retry.
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1),
  run_at INTEGER NOT NULL,
  leased_by TEXT,
  lease_until INTEGER,
  -- Order of claims across the whole table; an owner's latest is where the owner stands in the rotation.
  claim_seq INTEGER,
  last_error TEXT,
  -- At most one live (queued, running or failed) job per key: enqueueing the same work twice is a no-op.
  dedupe_key TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
INSERT INTO jobs_next (id, kind, payload, owner_id, state, attempts, max_attempts, run_at, leased_by, lease_until, claim_seq, last_error, dedupe_key, created_at, updated_at) SELECT id, kind, payload, owner_id, state, attempts, max_attempts, run_at, leased_by, lease_until, claim_seq, last_error, dedupe_key, created_at, updated_at FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_next RENAME TO jobs;
CREATE INDEX jobs_due ON jobs(state, run_at, kind, owner_id);
CREATE INDEX jobs_owner_due ON jobs(owner_id, state, run_at);
CREATE INDEX jobs_owner_claims ON jobs(owner_id, claim_seq);
CREATE INDEX jobs_claim_seq ON jobs(claim_seq);
CREATE INDEX jobs_updated ON jobs(state, updated_at);
CREATE UNIQUE INDEX jobs_dedupe ON jobs(dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running', 'failed');

CREATE TRIGGER targets_home_page AFTER INSERT ON targets
BEGIN
  INSERT INTO pages (id, target_id, comparison_id, owner_id, path, role, steps, position, created_at)
  VALUES ('home-' || NEW.id, NEW.id, NEW.comparison_id, NEW.owner_id,
          CASE WHEN instr(substr(NEW.url, instr(NEW.url, '://') + 3), '/') > 0
               THEN substr(substr(NEW.url, instr(NEW.url, '://') + 3), instr(substr(NEW.url, instr(NEW.url, '://') + 3), '/'))
               ELSE '/' END,
          'home', '[]', 0, NEW.created_at);
END;
