-- PostgreSQL twin of migrations/0014_comparison_consent.sql.
-- What a comparison's captures do about a consent banner (capture/consent/): answer it with the
-- least-tracking choice (reject, the default), accept every purpose, or keep it on screen.
ALTER TABLE comparisons ADD COLUMN consent TEXT NOT NULL DEFAULT 'reject' CHECK (consent IN ('reject', 'accept', 'keep'));
