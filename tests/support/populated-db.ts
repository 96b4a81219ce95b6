// A database with rows in every table (two users' worth), for tests that carry a populated
// install through a change: a migration, a copy into PostgreSQL.
import type { Db } from "#server/db/connection";

interface Column {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}
interface ForeignKey {
  table: string;
  from: string;
  to: string | null;
}

const SKIP = new Set(["schema_migrations", "sqlite_sequence"]);
export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function tables(db: Db): string[] {
  return db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name)
    .filter((n) => !SKIP.has(n));
}
export const columnsOf = (db: Db, table: string) => db.query<Column, []>(`PRAGMA table_info(${quote(table)})`).all();
export const foreignKeysOf = (db: Db, table: string) => db.query<ForeignKey, []>(`PRAGMA foreign_key_list(${quote(table)})`).all();

/** Parents before children, by the foreign keys between tables. */
function inDependencyOrder(db: Db, names: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    for (const fk of foreignKeysOf(db, t)) if (fk.table !== t && names.includes(fk.table)) visit(fk.table);
    out.push(t);
  };
  for (const t of names) visit(t);
  return out;
}

/**
 * Two rows in every table: row `i` of a child references row `i` of each parent, so everything
 * under user 0's comparison is user 0's. Values obey each column's CHECK (col IN (…)) list; the
 * rest are unique text, 1s and 0.5s. A table whose CHECK allows one row only keeps one; a table
 * a trigger already filled is left as it is.
 */
export function populate(db: Db): string[] {
  const names = tables(db);
  const users: string[] = [];
  for (const table of inDependencyOrder(db, names)) {
    const sql = db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(table)!.sql;
    const allowed = new Map<string, string>();
    for (const m of sql.matchAll(/CHECK \((\w+) IN \('([^']*)'/g)) if (!allowed.has(m[1]!)) allowed.set(m[1]!, m[2]!);
    // Rows a trigger made for what was inserted before (a user's personal workspace) are enough.
    if (db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM ${quote(table)}`).get()!.n > 0) continue;
    const fks = foreignKeysOf(db, table);
    const cols = columnsOf(db, table).filter((c) => !(c.pk === 1 && c.type.toUpperCase() === "INTEGER" && table !== "health_probe"));
    for (const i of [0, 1]) {
      const values = cols.map((c) => {
        const fk = fks.find((f) => f.from === c.name);
        if (fk && fk.table !== table) {
          const key = fk.to ?? "rowid";
          const parents = db.query<{ v: unknown }, []>(`SELECT ${quote(key)} AS v FROM ${quote(fk.table)} ORDER BY rowid`).all();
          return parents[i]?.v ?? parents[0]?.v ?? null;
        }
        if (fk) return null; // a reference to its own table: left empty
        if (allowed.has(c.name)) return allowed.get(c.name)!;
        const type = c.type.toUpperCase();
        if (type.includes("INT")) return table === "health_probe" ? 1 : i + 1;
        if (type.includes("REAL")) return 0.5;
        if (type.includes("BLOB")) return new Uint8Array([i, 1, 2]);
        if (c.name.endsWith("_at")) return new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
        if (["payload", "details", "metadata", "colors", "extraction", "components", "tokens", "features", "evidence"].includes(c.name))
          return JSON.stringify({ table, row: i });
        return `${table}-${c.name}-${i}`;
      });
      try {
        db.query(
          `INSERT INTO ${quote(table)} (${cols.map((c) => quote(c.name)).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
        ).run(...(values as never[]));
      } catch (e) {
        if (i === 0) throw new Error(`could not fill ${table}: ${(e as Error).message}`);
      }
      if (table === "users") users.push(String(values[cols.findIndex((c) => c.name === "id")]));
    }
  }
  return users;
}
