-- The activity log's private entries belong to a workspace (issue 31): `user_id` keeps its name and,
-- like `owner_id` (decision 0022), now names the workspace the entry is about, whose members read
-- it. Entries written before were a user's own, and a user's personal workspace shares the user's
-- id, so every row already names its workspace. SQLite cannot change a foreign key in place: the
-- table is rebuilt with the same columns, rows and indexes (foreign keys off, all checked before
-- commit).
-- pragma: foreign_keys=off

CREATE TABLE activity_log_next (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL CHECK (type IN ('trend', 'component', 'test', 'system', 'comparison')),
  message TEXT NOT NULL,
  details TEXT,
  status TEXT NOT NULL CHECK (status IN ('success', 'error', 'warning', 'info')),
  agent_name TEXT,
  metadata TEXT NOT NULL DEFAULT '{}',
  -- NULL: visible to every signed-in user. Set: the workspace's (its members') and the site admins'.
  user_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);
INSERT INTO activity_log_next (id, type, message, details, status, agent_name, metadata, user_id, created_at)
  SELECT id, type, message, details, status, agent_name, metadata, user_id, created_at FROM activity_log;
DROP TABLE activity_log;
ALTER TABLE activity_log_next RENAME TO activity_log;
CREATE INDEX activity_created ON activity_log(created_at, id);
CREATE INDEX activity_user ON activity_log(user_id, created_at);
