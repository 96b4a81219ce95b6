-- PostgreSQL twin of migrations/0015_site_secrets.sql.
-- Site secrets (issue 33): values a site's capture steps type into its own pages (a password, a
-- token), kept only as AES-256-GCM ciphertext. The key is never in the database (SECRETS_KEY or
-- DATA_DIR/secrets.key), so the database, or a backup of it, opens no secret on its own. The
-- target id and the name are bound into each ciphertext, so a row copied to another site or name
-- does not decrypt.
CREATE TABLE site_secrets (
  -- Deleting the target (or its comparison, or its owner) deletes its secrets.
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- The 12-byte nonce, fresh on every write.
  nonce BYTEA NOT NULL,
  -- Ciphertext followed by the 16-byte GCM tag.
  ciphertext BYTEA NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (target_id, name)
);
