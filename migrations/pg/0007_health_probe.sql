-- PostgreSQL twin of migrations/0007_health_probe.sql.
-- One row the readiness check rewrites: a committed write is the only sure sign that the database
-- file, its WAL and the disk under them accept writes (a rolled-back one never reaches the disk).
CREATE TABLE health_probe (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  checked_at TEXT NOT NULL
);
