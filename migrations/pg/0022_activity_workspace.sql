-- PostgreSQL twin of migrations/0022_activity_workspace.sql.
-- The activity log's private entries belong to a workspace: `user_id` keeps its name and now names
-- the workspace the entry is about. A user's personal workspace shares the user's id, so every row
-- already names its workspace.
ALTER TABLE activity_log DROP CONSTRAINT activity_log_user_id_fkey, ADD CONSTRAINT activity_log_user_id_fkey FOREIGN KEY (user_id) REFERENCES workspaces(id) ON DELETE CASCADE;
