-- PostgreSQL twin of migrations/0013_findings_rule.sql.
-- The rule that found each finding: an axe-core rule id ("image-alt", "color-contrast") for
-- accessibility findings, the engine's own rule otherwise; NULL for AI suggestions and for
-- findings written before it was recorded.
ALTER TABLE findings ADD COLUMN rule TEXT;
