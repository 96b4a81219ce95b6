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
import { columnsOf, foreignKeysOf, populate, quote, tables } from "#tests/support/populated-db";

const WORKSPACES = 21;
const dir = mkdtempSync(join(tmpdir(), "di-migrate-21-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
