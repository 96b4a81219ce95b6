-- PostgreSQL twin of migrations/0009_api_key_scope.sql.
-- What a personal API key may do: 'read' answers GETs only; 'run' also creates comparisons and
-- targets and starts runs. Keys made before scopes existed were used by CI to start runs, so they
-- become 'run' keys.
ALTER TABLE api_keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'run' CHECK (scope IN ('read', 'run'));
