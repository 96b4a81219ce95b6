-- Nothing changes in SQLite. The PostgreSQL twin makes every transaction that writes announce
-- itself at commit, so each instance of the app knows when what it keeps in memory may be out of
-- date (src/db/change-stamp.ts). Here one process owns the file, and another connection's commit
-- shows in PRAGMA data_version. The schema comparison checks the PostgreSQL side's triggers on
-- their own (tests/db/schema-twins.test.ts). A migration holds one statement at least:
SELECT 1;
