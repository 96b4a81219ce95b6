-- PostgreSQL twin of migrations/0021_workspaces.sql.
-- Workspaces (issue 31): the team is the unit of work. `owner_id` keeps its name and now names the
-- owning workspace (decision 0022). A user's personal workspace shares the user's id, so every row
-- owned before workspaces existed is already in its owner's personal workspace.
CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- Set on a personal workspace: its user (whose id it shares). It cannot be deleted or handed over.
  personal_user_id TEXT UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT iso_now()
);

CREATE TABLE workspace_members (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
  -- Whether the member receives the workspace's alerts and digests.
  alerts BOOLEAN NOT NULL DEFAULT TRUE,
  joined_at TEXT NOT NULL DEFAULT iso_now(),
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members(user_id);

-- An invitation by link or e-mail. Only the SHA-256 of its token is kept.
CREATE TABLE workspace_invitations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
  email CITEXT,
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

CREATE FUNCTION users_personal_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO workspaces (id, name, personal_user_id, created_at) VALUES (NEW.id, 'Personal', NEW.id, NEW.created_at);
  INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES (NEW.id, NEW.id, 'owner', NEW.created_at);
  RETURN NEW;
END;
$$;
CREATE TRIGGER users_personal_workspace AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION users_personal_workspace();

-- The workspace a user last chose: the current one when a request names none.
ALTER TABLE users ADD COLUMN last_workspace_id TEXT REFERENCES workspaces(id) ON DELETE SET NULL;

-- An API key is bound to one workspace; existing keys to their user's personal one.
ALTER TABLE api_keys ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
UPDATE api_keys SET workspace_id = user_id;

-- Audit per workspace: NULL for the operator's own entries (settings, users, backups).
ALTER TABLE audit_log ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE;
CREATE INDEX audit_log_workspace ON audit_log(workspace_id, created_at);

-- Every owner now references its workspace.
ALTER TABLE comparisons DROP CONSTRAINT comparisons_owner_id_fkey, ADD CONSTRAINT comparisons_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE targets DROP CONSTRAINT targets_owner_id_fkey, ADD CONSTRAINT targets_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE snapshots DROP CONSTRAINT snapshots_owner_id_fkey, ADD CONSTRAINT snapshots_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE diffs DROP CONSTRAINT diffs_owner_id_fkey, ADD CONSTRAINT diffs_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE findings DROP CONSTRAINT findings_owner_id_fkey, ADD CONSTRAINT findings_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE components DROP CONSTRAINT components_owner_id_fkey, ADD CONSTRAINT components_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE experiments DROP CONSTRAINT experiments_owner_id_fkey, ADD CONSTRAINT experiments_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE comparison_schedules DROP CONSTRAINT comparison_schedules_owner_id_fkey, ADD CONSTRAINT comparison_schedules_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_owner_id_fkey, ADD CONSTRAINT alert_rules_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE alert_deliveries DROP CONSTRAINT alert_deliveries_owner_id_fkey, ADD CONSTRAINT alert_deliveries_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE runs DROP CONSTRAINT runs_owner_id_fkey, ADD CONSTRAINT runs_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE run_changes DROP CONSTRAINT run_changes_owner_id_fkey, ADD CONSTRAINT run_changes_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE pages DROP CONSTRAINT pages_owner_id_fkey, ADD CONSTRAINT pages_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE run_page_sets DROP CONSTRAINT run_page_sets_owner_id_fkey, ADD CONSTRAINT run_page_sets_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
ALTER TABLE jobs DROP CONSTRAINT jobs_owner_id_fkey, ADD CONSTRAINT jobs_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES workspaces(id) ON DELETE CASCADE;
