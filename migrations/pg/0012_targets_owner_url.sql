-- PostgreSQL twin of migrations/0012_targets_owner_url.sql.
-- A capture reuses the timing samples of the same page measured in the last hour by any of its
-- owner's comparisons (capture/timing-samples.ts): found by owner and URL here, then through
-- snapshots_latest (target_id, viewport, captured_at), instead of a scan of every target.
CREATE INDEX targets_owner_url ON targets(owner_id, url);
