-- Nothing changes in SQLite. The PostgreSQL twin gives the jobs claim a sequence for claim_seq,
-- because claims run side by side there; here every claim runs inside BEGIN IMMEDIATE, one writer
-- at a time, and numbers itself one past the largest claim_seq
-- (docs/decisions/0019-jobs-in-the-database.md). The schema comparison names the sequence as the
-- PostgreSQL side's own (tests/db/schema-twins.test.ts). A migration holds one statement at least:
SELECT 1;
