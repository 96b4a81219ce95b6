// Migrations 0021 and 0022 (workspaces) on a copy of a populated database: a database is built at
// migration 20, every table gets rows (two users' worth, each chain of rows owned by one of them), the file
// is copied, and the copy is migrated. Every row must still be there with the same values, every
// owner_id must name its owner's personal workspace (which shares the user's id), and every foreign
// key must hold.
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { migrations } from "#server/db/migrations";

const WORKSPACES = 21;
const dir = mkdtempSync(join(tmpdir(), "di-migrate-21-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function tables(db: Db): string[] {
  return db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name)
    .filter((n) => !SKIP.has(n));
}
const columnsOf = (db: Db, table: string) => db.query<Column, []>(`PRAGMA table_info(${quote(table)})`).all();
const foreignKeysOf = (db: Db, table: string) => db.query<ForeignKey, []>(`PRAGMA foreign_key_list(${quote(table)})`).all();

/** Up to migration `last`: the later ones are marked applied first, then unmarked. */
function migrateTo(db: Db, last: number) {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))",
  );
  const later = migrations.filter((m) => m.version > last);
  for (const m of later) db.query("INSERT INTO schema_migrations (version, name) VALUES (?, ?)").run(m.version, m.name);
  migrate(db);
  for (const m of later) db.query("DELETE FROM schema_migrations WHERE version = ?").run(m.version);
}

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
 * rest are unique text, 1s and 0.5s. A table whose CHECK allows one row only keeps one.
 */
function populate(db: Db): string[] {
  const names = tables(db);
  const users: string[] = [];
  for (const table of inDependencyOrder(db, names)) {
    const sql = db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(table)!.sql;
    const allowed = new Map<string, string>();
    for (const m of sql.matchAll(/CHECK \((\w+) IN \('([^']*)'/g)) if (!allowed.has(m[1]!)) allowed.set(m[1]!, m[2]!);
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

/** Every row of a table as it was, by the columns it had then, sorted (rebuilt tables may order rows otherwise). */
function rowsOf(db: Db, table: string, columns: string[]): string[] {
  return db
    .query<Record<string, unknown>, []>(`SELECT ${columns.map(quote).join(", ")} FROM ${quote(table)}`)
    .all()
    .map((r) => JSON.stringify(r, (_k, v) => (v instanceof Uint8Array ? [...v] : v)))
    .sort();
}

describe("migrations 0021 and 0022 on a populated database", () => {
  const original = join(dir, "at-20.sqlite");
  const before = openDatabase(original);
  migrateTo(before, WORKSPACES - 1);
  const users = populate(before);
  const oldTables = tables(before);
  const columns = new Map(oldTables.map((t) => [t, columnsOf(before, t).map((c) => c.name)]));
  const owned = oldTables.filter((t) => columns.get(t)!.includes("owner_id"));
  const snapshot = new Map(oldTables.map((t) => [t, rowsOf(before, t, columns.get(t)!)]));
  closeDatabase(before);

  const copy = join(dir, "copy.sqlite");
  copyFileSync(original, copy);
  const db = openDatabase(copy);
  const ran = migrate(db);

  test("the database was populated at 20 and only 21 onwards ran on the copy", () => {
    expect(ran[0]).toBe(WORKSPACES);
    expect(users).toHaveLength(2);
    // Every table has rows, and the ones that name an owner are the ones 0021 rebuilt.
    for (const t of oldTables) expect(snapshot.get(t)!.length, t).toBeGreaterThan(0);
    expect(owned.sort()).toEqual(
      [
        "alert_deliveries",
        "alert_rules",
        "comparison_schedules",
        "comparisons",
        "components",
        "diffs",
        "experiments",
        "findings",
        "jobs",
        "pages",
        "run_changes",
        "run_page_sets",
        "runs",
        "snapshots",
        "targets",
      ].sort(),
    );
  });

  test("every row of every table is kept with the same values", () => {
    const lost: string[] = [];
    for (const t of oldTables) {
      const after = rowsOf(db, t, columns.get(t)!);
      if (JSON.stringify(after) !== JSON.stringify(snapshot.get(t))) lost.push(`${t}: ${snapshot.get(t)!.length} -> ${after.length}`);
    }
    expect(lost).toEqual([]);
  });

  test("each user has a personal workspace of their own id, as its owner; every owner_id names one", () => {
    const personal = db
      .query<{ id: string; personal_user_id: string; role: string }, []>(
        `SELECT w.id, w.personal_user_id, m.role FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = w.personal_user_id ORDER BY w.id`,
      )
      .all();
    expect(personal).toEqual([...users].sort().map((id) => ({ id, personal_user_id: id, role: "owner" })));
    for (const t of owned) {
      const owners = db.query<{ owner_id: string | null }, []>(`SELECT DISTINCT owner_id FROM ${quote(t)}`).all();
      for (const o of owners) if (o.owner_id !== null) expect(users, `${t}.owner_id`).toContain(o.owner_id);
      const fk = foreignKeysOf(db, t).find((f) => f.from === "owner_id")!;
      expect(fk.table, `${t}.owner_id references`).toBe("workspaces");
    }
    // The activity log's private entries name their workspace too (0022).
    expect(foreignKeysOf(db, "activity_log").find((f) => f.from === "user_id")!.table).toBe("workspaces");
    expect(
      db
        .query<{ user_id: string | null }, []>("SELECT DISTINCT user_id FROM activity_log")
        .all()
        .every((r) => users.includes(r.user_id!)),
    ).toBe(true);
    // Each user's chain of rows stayed theirs: a target's owner is its comparison's.
    const mixed = db.query("SELECT t.id FROM targets t JOIN comparisons c ON c.id = t.comparison_id WHERE t.owner_id <> c.owner_id").all();
    expect(mixed).toEqual([]);
  });

  test("API keys are bound to their user's personal workspace; the audit so far belongs to no workspace", () => {
    expect(db.query("SELECT 1 FROM api_keys WHERE workspace_id IS NOT user_id").all()).toEqual([]);
    expect(db.query("SELECT 1 FROM audit_log WHERE workspace_id IS NOT NULL").all()).toEqual([]);
    expect(db.query("SELECT 1 FROM users WHERE last_workspace_id IS NOT NULL").all()).toEqual([]);
  });

  test("every foreign key holds, and an integrity check passes", () => {
    expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  });

  test("after it, a new user gets a personal workspace of their id, and the home-page trigger still runs", () => {
    db.query("INSERT INTO users (id, email, password_hash) VALUES ('new-user', 'new@example.com', 'x')").run();
    expect(db.query("SELECT id, personal_user_id FROM workspaces WHERE id = 'new-user'").get()).toEqual({
      id: "new-user",
      personal_user_id: "new-user",
    });
    db.query(
      "INSERT INTO comparisons (id, owner_id, name, created_at, updated_at) VALUES ('c-new', 'new-user', 'n', '2026-01-01', '2026-01-01')",
    ).run();
    db.query(
      "INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES ('t-new', 'c-new', 'new-user', 'l', 'https://example.com/a/b', '2026-01-01')",
    ).run();
    expect(db.query("SELECT path, owner_id FROM pages WHERE id = 'home-t-new'").get()).toEqual({ path: "/a/b", owner_id: "new-user" });
    closeDatabase(db);
  });
});
