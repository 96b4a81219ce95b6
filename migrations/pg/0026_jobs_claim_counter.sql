-- PostgreSQL twin of migrations/0026_jobs_claim_counter.sql. Claims run side by side here, so
-- claim_seq (where an owner stands in the rotation) comes from a sequence: MAX(claim_seq) + 1 would
-- give two claims at once the same number. It starts past the claims already recorded, so owners
-- keep their places, and belongs to the column (dropped with it; migrate-to carries it on).
CREATE SEQUENCE jobs_claim_counter AS BIGINT OWNED BY jobs.claim_seq;
SELECT setval('jobs_claim_counter', COALESCE(MAX(claim_seq), 0) + 1, false) FROM jobs;
