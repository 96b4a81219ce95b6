-- PostgreSQL twin of migrations/0024_rate_windows.sql (epoch milliseconds are BIGINT here).
-- Rate limits shared by every instance of a deployment (sign-in lockout, sign-up and API budgets):
-- one fixed window per key, counted in one statement. The embedded server counts in memory.
CREATE TABLE rate_windows (
  key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  -- Epoch milliseconds the window ends at.
  reset_ms BIGINT NOT NULL
);
CREATE INDEX rate_windows_reset ON rate_windows(reset_ms);
