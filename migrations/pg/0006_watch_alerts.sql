-- PostgreSQL twin of migrations/0006_watch_alerts.sql.
-- Competitor watch alerts: rules per comparison (a webhook URL or an e-mail address, a minimum
-- severity and the change kinds that count) and the log of every delivery with its retries.
CREATE TABLE alert_rules (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  channel TEXT NOT NULL CHECK (channel IN ('webhook', 'email')),
  -- The webhook URL or the e-mail address.
  destination TEXT NOT NULL,
  min_severity TEXT NOT NULL DEFAULT 'low' CHECK (min_severity IN ('low', 'medium', 'high')),
  -- JSON array of change kinds; empty means every kind.
  kinds TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL
);
CREATE INDEX alert_rules_comparison ON alert_rules(comparison_id, created_at);

CREATE TABLE alert_deliveries (
  id TEXT PRIMARY KEY,
  alert_id TEXT NOT NULL REFERENCES alert_rules(id) ON DELETE CASCADE,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The run whose changes were sent (runs may be pruned by retention; the log keeps the id).
  run_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('sent', 'failed')),
  attempts INTEGER NOT NULL,
  last_error TEXT,
  sent_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX alert_deliveries_comparison ON alert_deliveries(comparison_id, created_at);
