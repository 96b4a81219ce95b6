import type { SqlDb } from "#server/db/sql";

// Nothing is read ahead of a call: a database whose migrations are missing must still get an
// answer from the checks that can run.
export function healthRepository(db: SqlDb) {
  const probe = db.dialect.upsert("health_probe", ["id", "checked_at"], ["id"]);
  return {
    /** A real committed write (SQLite runs with synchronous=FULL, so it reaches the disk). */
    writeProbe: async (at: string): Promise<void> => {
      await db.run(probe, [1, at]);
    },
    appliedMigrations: async (): Promise<number[]> =>
      (await db.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version")).map((r) => r.version),
  };
}
