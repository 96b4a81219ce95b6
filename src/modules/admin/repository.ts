import type { Db } from "#server/db/connection";
import type { Statement } from "bun:sqlite";

export function adminRepository(db: Db) {
  const q = {
    getSetting: db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?"),
    putSetting: db.query<null, [string, string, string]>(
      "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    ),
    tables: db.query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    ),
    pages: db.query<{ page_count: number; page_size: number }, []>(
      "SELECT page_count, page_size FROM pragma_page_count(), pragma_page_size()",
    ),
    vacuumInto: db.query<null, [string]>("VACUUM INTO ?"),
  };
  // Table names come from sqlite_master, never from input; each count statement is prepared once.
  const counters = new Map<string, Statement<{ n: number }, []>>();
  const counter = (table: string) => {
    let s = counters.get(table);
    if (!s) {
      s = db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM "${table.replaceAll('"', '""')}"`);
      counters.set(table, s);
    }
    return s;
  };

  return {
    getSetting<T>(key: string): T | null {
      const row = q.getSetting.get(key);
      if (!row) return null;
      try {
        return JSON.parse(row.value) as T;
      } catch {
        return null;
      }
    },
    putSetting: (key: string, value: unknown, at: string) => q.putSetting.run(key, JSON.stringify(value), at),
    tables: () => q.tables.all().map((r) => r.name),
    countRows: (table: string) => counter(table).get()?.n ?? 0,
    /** Bytes of the database pages (the on-disk size of an in-memory or not-yet-checkpointed database). */
    pageBytes: () => {
      const r = q.pages.get();
      return r ? r.page_count * r.page_size : 0;
    },
    /** A transactionally consistent copy of the whole database, taken under a read snapshot (writers carry on under WAL). */
    vacuumInto: (path: string) => q.vacuumInto.run(path),
  };
}

export type AdminRepository = ReturnType<typeof adminRepository>;
