-- PostgreSQL twin of migrations/0017_oidc_identities.sql.
-- Single sign-on (issue 31): an OpenID Connect identity is its issuer and subject, never its e-mail
-- (an address can change or be reassigned at the provider). One identity opens one account; an
-- account may hold identities at several issuers.
CREATE TABLE oidc_identities (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The address the provider gave when the identity was linked, for the operator's eyes only.
  email TEXT,
  created_at TEXT NOT NULL,
  last_login_at TEXT,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX oidc_identities_user ON oidc_identities(user_id);
