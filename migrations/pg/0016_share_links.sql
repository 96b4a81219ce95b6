-- PostgreSQL twin of migrations/0016_share_links.sql.
-- Share links (issue 31): one completed run's results, readable without an account by whoever holds
-- the link. Only the SHA-256 of the link's token is kept, so the database (or a backup of it) holds
-- nothing that opens a share. A revoked link keeps its row, so the list still shows it.
CREATE TABLE share_links (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  -- A run pruned from the history (HISTORY_KEEP) takes its links with it.
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  -- NULL: never expires.
  expires_at TEXT,
  revoked_at TEXT,
  views INTEGER NOT NULL DEFAULT 0,
  last_viewed_at TEXT
);
CREATE INDEX share_links_comparison ON share_links(comparison_id, created_at);
