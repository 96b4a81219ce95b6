-- PostgreSQL twin of migrations/0004_admin.sql.
-- Admin console: personal API keys, and indexes for the audit views.
-- Maintenance mode and alert thresholds live in `settings`; backups are the files under DATA_DIR/backups.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- The first characters of the key, kept so people can tell their keys apart; the key itself is only hashed.
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (iso_now()),
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_user ON api_keys(user_id, created_at);

CREATE INDEX audit_log_action ON audit_log(action, created_at);
CREATE INDEX audit_log_actor ON audit_log(actor_id, created_at);
