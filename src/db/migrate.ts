import type { Db } from "./connection";
import { writeTx } from "./connection";
import { migrations, needsForeignKeysOff } from "./migrations";

/** Applies each numbered migration not yet recorded, each in its own immediate transaction; forward-only. */
export function migrate(db: Db): number[] {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))",
  );
  const applied = new Set(
    db
      .query<{ version: number }, []>("SELECT version FROM schema_migrations")
      .all()
      .map((r) => r.version),
  );
  const ran: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    const keysOff = needsForeignKeysOff(m);
    // The pragma is a no-op inside a transaction, so it is set around it.
    if (keysOff) db.exec("PRAGMA foreign_keys = OFF");
    try {
      writeTx(db, () => {
        db.exec(m.sql);
        if (keysOff) {
          const broken = db.query("PRAGMA foreign_key_check").all();
          if (broken.length > 0)
            throw new Error(`Migration ${m.name} leaves ${broken.length} broken foreign keys: ${JSON.stringify(broken.slice(0, 3))}`);
        }
        db.query("INSERT INTO schema_migrations (version, name) VALUES (?, ?)").run(m.version, m.name);
      });
    } finally {
      if (keysOff) db.exec("PRAGMA foreign_keys = ON");
    }
    ran.push(m.version);
  }
  return ran;
}
