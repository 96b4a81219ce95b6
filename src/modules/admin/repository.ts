// The console's settings and the database's own figures. Listing tables, page sizes and backups by
// VACUUM INTO are SQLite's; PostgreSQL answers the first two from its catalogue.
import type { SqlDb } from "#server/db/sql";

export function adminRepository(db: SqlDb) {
  const pg = db.dialect.name === "postgres";
  const putSetting = db.dialect.upsert("settings", ["key", "value", "updated_at"], ["key"]);
  return {
    async getSetting<T>(key: string): Promise<T | null> {
      const row = await db.one<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key]);
      if (!row) return null;
      try {
        return JSON.parse(row.value) as T;
      } catch {
        return null;
      }
    },
    putSetting: (key: string, value: unknown, at: string) => db.run(putSetting, [key, JSON.stringify(value), at]),
    tables: async () =>
      (
        await db.all<{ name: string }>(
          pg
            ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
      ).map((r) => r.name),
    // Table names come from the catalogue, never from input.
    countRows: async (table: string) => (await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM "${table.replaceAll('"', '""')}"`))?.n ?? 0,
    /** Bytes of the database pages (the on-disk size of an in-memory or not-yet-checkpointed database; PostgreSQL's whole database). */
    pageBytes: async () => {
      if (pg) return (await db.one<{ n: number }>("SELECT pg_database_size(current_database()) AS n"))?.n ?? 0;
      const r = await db.one<{ page_count: number; page_size: number }>(
        "SELECT page_count, page_size FROM pragma_page_count(), pragma_page_size()",
      );
      return r ? r.page_count * r.page_size : 0;
    },
    /** The engine and its version as the database reports it: "postgres 15.14", "sqlite 3.51.0". */
    engineVersion: async (): Promise<string> => {
      const r = await db.one<{ v: string }>(pg ? "SELECT current_setting('server_version') AS v" : "SELECT sqlite_version() AS v");
      return `${db.dialect.name} ${(r?.v ?? "").split(" ")[0]}`.trim();
    },
    /** PostgreSQL's sessions on this database (every instance's pools); null on SQLite, whose connections are this process's files. */
    sessions: async (): Promise<number | null> =>
      pg
        ? ((await db.one<{ n: number }>("SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()"))?.n ?? 0)
        : null,
    /** Which database this is: backups are the console's to make on SQLite only. */
    dialect: db.dialect.name,
    /** A transactionally consistent copy of the whole database, taken under a read snapshot (writers carry on under WAL). */
    vacuumInto: async (path: string): Promise<void> => {
      if (pg) throw new Error("a copy of a PostgreSQL database is pg_dump's to make, not the console's");
      await db.run("VACUUM INTO $1", [path]);
    },
  };
}

export type AdminRepository = ReturnType<typeof adminRepository>;
