-- PostgreSQL twin of migrations/0010_watch_digest.sql.
-- Competitor watch digest: a user may ask for a daily or weekly e-mail summing up every watched
-- comparison. next_send_at is stored (like schedules) so a digest due while the server was down is
-- sent once at boot, not once per missed day.
CREATE TABLE watch_digests (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  frequency TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly')),
  timezone TEXT NOT NULL,
  next_send_at TEXT,
  last_sent_at TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX watch_digests_due ON watch_digests(next_send_at);
