// The migrations runner for the async handle, both dialects: each numbered migration not yet
// recorded in schema_migrations runs in its own transaction, forward-only, as src/db/migrate.ts
// does for the synchronous connection (the two record versions the same way, so either can carry
// a SQLite file forward). On PostgreSQL several instances may boot at once: an advisory lock held
// for each transaction lets one apply a migration while the others wait, then find it recorded.
import { migrations as sqliteMigrations, needsForeignKeysOff, type Migration } from "../migrations";
import type { SqlDb } from "./handle";
import { pgMigrations } from "./pg-migrations";

// Any constant both processes agree on; it names the lock in pg_locks ("design-intel migrations").
const PG_LOCK = 4_173_020_017;

const SCHEMA_TABLE = {
  sqlite:
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))",
  postgres:
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')))",
} as const;

/** The migrations of this build for the handle's dialect, in order. */
export function migrationsFor(db: SqlDb): Migration[] {
  return [...(db.dialect.name === "postgres" ? pgMigrations : sqliteMigrations)].sort((a, b) => a.version - b.version);
}

/** Applies what is missing; resolves with the versions it applied. */
export async function migrateSql(db: SqlDb): Promise<number[]> {
  const pg = db.dialect.name === "postgres";
  const lock = async (tx: SqlDb) => {
    if (pg) await tx.exec(`SELECT pg_advisory_xact_lock(${PG_LOCK})`);
  };
  await db.tx(async (tx) => {
    await lock(tx);
    await tx.exec(SCHEMA_TABLE[db.dialect.name]);
  });
  const ran: number[] = [];
  for (const m of migrationsFor(db)) {
    // SQLite only (see FOREIGN_KEYS_OFF); the pragma is a no-op inside a transaction.
    const keysOff = !pg && needsForeignKeysOff(m);
    if (keysOff) await db.exec("PRAGMA foreign_keys = OFF");
    try {
      const applied = await db.tx(async (tx) => {
        await lock(tx);
        if (await tx.one("SELECT 1 AS done FROM schema_migrations WHERE version = $1", [m.version])) return false;
        await tx.exec(m.sql);
        if (keysOff) {
          const broken = await tx.all("PRAGMA foreign_key_check");
          if (broken.length > 0) throw new Error(`Migration ${m.name} leaves ${broken.length} broken foreign keys`);
        }
        await tx.run("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
        return true;
      });
      if (applied) ran.push(m.version);
    } finally {
      if (keysOff) await db.exec("PRAGMA foreign_keys = ON");
    }
  }
  return ran;
}
