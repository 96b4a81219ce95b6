import type { Db } from "#server/db/connection";

// Statements are prepared at call time (bun:sqlite caches them): a database whose migrations are
// missing must still get an answer from the checks that can run.
export function healthRepository(db: Db) {
  return {
    /** A real committed write (the connection runs with synchronous=FULL, so it reaches the disk). */
    writeProbe(at: string): void {
      db.query(
        "INSERT INTO health_probe (id, checked_at) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET checked_at = excluded.checked_at",
      ).run(at);
    },
    appliedMigrations(): number[] {
      return db
        .query<{ version: number }, []>("SELECT version FROM schema_migrations ORDER BY version")
        .all()
        .map((r) => r.version);
    },
  };
}
