// The async handle (src/db/sql) runs one set of statements on SQLite and on PostgreSQL with the
// same results: inserts, upserts (replacing and adding), COALESCE, counts and flags read as
// numbers, JSON fields, parameters in any order, and transactions that roll back on error.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  databaseTarget,
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isUniqueViolation,
  migrateSql,
  openSql,
  type SqlDb,
  sqliteSql,
} from "#server/db/sql";
import { freshPgDatabase, migratedPg, PG_START_TIMEOUT, pgMissing, postgres, stopPostgres } from "#tests/support/postgres";

const T0 = "2026-01-01T00:00:00.000Z";

/** The same statements, whatever the dialect; resolves with everything they read back. */
async function scenario(db: SqlDb) {
  const d = db.dialect;
  const out: Record<string, unknown> = {};
  // insert: flags go in as JS booleans (SQLite stores 0/1, PostgreSQL boolean) and come back 0/1.
  const addUser = (id: string, email: string, disabled: boolean) =>
    db.run("INSERT INTO users (id, email, username, password_hash, disabled, created_at) VALUES ($1, $2, $3, 'h', $4, $5)", [
      id,
      email,
      null,
      disabled,
      T0,
    ]);
  out.inserted = (await addUser("u1", "Ann@Example.com", false)) + (await addUser("u2", "bob@example.com", true));
  // Parameters by number, in any order and repeated.
  out.ordered = await db.one("SELECT $2 AS b, $1 AS a, $2 AS b2", ["one", "two"]);
  // SELECT with COALESCE over a NULL column; ORDER BY text.
  out.users = await db.all("SELECT id, email, COALESCE(username, 'anon') AS name, disabled, token_version FROM users ORDER BY id");
  // Aggregates are numbers on both (PostgreSQL's COUNT is int8).
  out.counts = await db.one(
    `SELECT COUNT(*) AS n, ${d.countWhere("disabled")} AS off, ${d.countWhere("role = 'admin'")} AS admins FROM users`,
  );
  out.flagFilter = await db.all("SELECT id FROM users WHERE disabled = TRUE");
  // E-mail addresses compare without case (SQLite NOCASE, PostgreSQL citext), and match case-blind.
  out.byEmail = await db.one("SELECT id FROM users WHERE email = $1", ["ann@example.COM"]);
  out.search = await db.all(`SELECT id FROM users WHERE email ${d.ilike} $1 ORDER BY id`, ["%EXAMPLE%"]);
  // Upsert replacing: settings(key) twice, the second wins.
  const setting = d.upsert("settings", ["key", "value", "updated_at"], ["key"]);
  await db.run(setting, ["mode", "a", T0]);
  await db.run(setting, ["mode", "b", "2026-01-02T00:00:00.000Z"]);
  out.settings = await db.all("SELECT key, value, updated_at FROM settings");
  // Upsert adding: traffic counters accumulate.
  await db.run(
    "INSERT INTO experiments (id, name, kind, source_key, source_label, ingest_key, planned_per_variant, alpha, sim_seed, started_at) VALUES ('e1', 'E', 'hero', 'default', 'D', 'k', 10, 0.05, 7, $1)",
    [T0],
  );
  await db.run("INSERT INTO experiment_variants (id, experiment_id, label, name) VALUES ('v1', 'e1', 'A', 'A')");
  const traffic = d.upsert(
    "experiment_traffic",
    ["experiment_id", "variant_id", "bucket", "source", "impressions", "conversions"],
    ["experiment_id", "variant_id", "bucket", "source"],
    {
      add: ["impressions", "conversions"],
    },
  );
  await db.run(traffic, ["e1", "v1", "2026-01-01T00:00", "real", 3, 1]);
  await db.run(traffic, ["e1", "v1", "2026-01-01T00:00", "real", 4, 0]);
  out.traffic = await db.all(
    "SELECT impressions, conversions, alpha FROM experiment_traffic JOIN experiments ON experiments.id = experiment_id",
  );
  // An identity id comes back a number; now() has the columns' ISO form.
  await db.run(`INSERT INTO audit_log (action, created_at) VALUES ('a', ${d.now}), ('b', ${d.now})`);
  const audit = await db.all<{ id: number; created_at: string }>("SELECT id, created_at FROM audit_log ORDER BY id");
  out.auditIds = audit.map((r) => r.id);
  out.nowShape = audit.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.created_at));
  // A JSON field of a text column.
  out.json = await db.one(`SELECT ${d.jsonText("metadata", "does")} AS does FROM agents WHERE id = 'test-commander'`);
  // A transaction that throws leaves nothing behind; one that returns commits.
  const boom = await db
    .tx(async (tx) => {
      await tx.run("UPDATE users SET username = 'x' WHERE id = 'u1'");
      await tx.run("DELETE FROM users WHERE id = 'u2'");
      throw new Error("boom");
    })
    .catch((e: Error) => e.message);
  out.rolledBack = { boom, users: await db.all("SELECT id, username FROM users ORDER BY id") };
  out.committed = await db.tx(async (tx) => {
    await tx.run("UPDATE users SET token_version = token_version + 1 WHERE id = $1", ["u1"]);
    // A nested transaction is a savepoint: its failure undoes only its own work.
    await tx
      .tx(async (sp) => {
        await sp.run("UPDATE users SET token_version = 99 WHERE id = 'u1'");
        throw new Error("inner");
      })
      .catch(() => {});
    return (await tx.one<{ token_version: number }>("SELECT token_version FROM users WHERE id = 'u1'"))?.token_version;
  });
  out.afterCommit = await db.one("SELECT token_version FROM users WHERE id = 'u1'");
  // Keep the newest N: an OFFSET with no limit.
  for (const [i, t] of ["2026-01-01", "2026-01-02", "2026-01-03"].entries())
    await db.run("INSERT INTO activity_log (id, type, message, status, created_at) VALUES ($1, 'system', 'm', 'info', $2)", [`a${i}`, t]);
  out.pruned = await db.run(
    `DELETE FROM activity_log WHERE id IN (SELECT id FROM activity_log ORDER BY id DESC ${d.noLimit} OFFSET $1)`,
    [1],
  );
  out.kept = await db.all("SELECT id FROM activity_log");
  // A refused write means the same on both: a duplicate, a missing parent.
  const refused = async (text: string) =>
    db.run(text).then(
      () => "written",
      (e: unknown) => (isUniqueViolation(e) ? "duplicate" : isForeignKeyViolation(e) ? "no parent" : String(e)),
    );
  out.refused = [
    await refused("INSERT INTO settings (key, value) VALUES ('mode', 'c')"),
    await refused("INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES ('t', 'nope', 'u1', 'l', 'u', 'n')"),
  ];
  // Changes counted by UPDATE and DELETE.
  out.changes = [await db.run("UPDATE users SET token_version = token_version + 1"), await db.run("DELETE FROM users WHERE id = 'nobody'")];
  return out;
}

const EXPECTED = {
  inserted: 2,
  ordered: { b: "two", a: "one", b2: "two" },
  users: [
    { id: "u1", email: "Ann@Example.com", name: "anon", disabled: 0, token_version: 0 },
    { id: "u2", email: "bob@example.com", name: "anon", disabled: 1, token_version: 0 },
  ],
  counts: { n: 2, off: 1, admins: 0 },
  flagFilter: [{ id: "u2" }],
  byEmail: { id: "u1" },
  search: [{ id: "u1" }, { id: "u2" }],
  settings: [{ key: "mode", value: "b", updated_at: "2026-01-02T00:00:00.000Z" }],
  traffic: [{ impressions: 7, conversions: 1, alpha: 0.05 }],
  auditIds: [1, 2],
  nowShape: true,
  json: { does: "Runs A/B tests between generated variants" },
  rolledBack: {
    boom: "boom",
    users: [
      { id: "u1", username: null },
      { id: "u2", username: null },
    ],
  },
  committed: 1,
  afterCommit: { token_version: 1 },
  refused: ["duplicate", "no parent"],
  pruned: 2,
  kept: [{ id: "a2" }],
  changes: [2, 0],
};

async function transactionScope(db: SqlDb) {
  // A query issued from outside while a transaction is open is not part of it: the transaction's
  // rollback does not take it along.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const t = db
    .tx(async (tx) => {
      await tx.run("INSERT INTO settings (key, value) VALUES ('inside', '1')");
      await held;
      throw new Error("undo");
    })
    .catch(() => "rolled back");
  await Bun.sleep(20);
  const outside = db.run("INSERT INTO settings (key, value) VALUES ('outside', '1')");
  release();
  expect(await t).toBe("rolled back");
  await outside;
  expect(await db.all("SELECT key FROM settings WHERE key IN ('inside', 'outside')")).toEqual([{ key: "outside" }]);
  // A repository built on the outer handle joins the transaction its caller opened: rolled back
  // with it, committed with it. Work that outlives the transaction goes back to the outer handle.
  const keys = async () => (await db.all<{ key: string }>("SELECT key FROM settings WHERE key LIKE 'j%' ORDER BY key")).map((r) => r.key);
  await db
    .tx(async () => {
      await db.run("INSERT INTO settings (key, value) VALUES ('j-undone', '1')");
      throw new Error("undo");
    })
    .catch(() => {});
  expect(await keys()).toEqual([]);
  let later!: Promise<number>;
  await db.tx(async () => {
    await db.run("INSERT INTO settings (key, value) VALUES ('j-kept', '1')");
    later = Bun.sleep(30).then(() => db.run("INSERT INTO settings (key, value) VALUES ('j-later', '1')"));
  });
  await later;
  expect(await keys()).toEqual(["j-kept", "j-later"]);
}

describe("SQLite (sqlite: in DATA_DIR)", () => {
  let dir: string;
  let db: SqlDb;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "di-sql-"));
    db = await openSql(databaseTarget("sqlite:", dir));
    await migrateSql(db);
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("is the file design-intel.db in DATA_DIR", () => {
    expect(databaseTarget(undefined, dir)).toEqual({ kind: "sqlite", path: join(dir, "design-intel.db") });
    expect(db.detail).toBe("sqlite");
  });
  test("runs the representative statements", async () => {
    expect(await scenario(db)).toEqual(EXPECTED);
  });
  test("keeps other work out of a transaction; the outer handle joins it from inside", () => transactionScope(db));
  test("a transaction SQLite ended itself (a full disk) fails with SQLite's reason, not the rollback's", async () => {
    const conn = new Database(":memory:");
    conn.run("CREATE TABLE t (x TEXT)");
    // A database that may not grow: the insert fails SQLITE_FULL, and SQLite rolls the transaction back itself.
    conn.run(`PRAGMA max_page_count = ${(conn.query("PRAGMA page_count").get() as { page_count: number }).page_count}`);
    const sql = sqliteSql(conn);
    const full = sql.tx(() => sql.run("INSERT INTO t VALUES ($1)", ["x".repeat(100_000)]));
    expect(full).rejects.toMatchObject({ code: "SQLITE_FULL" });
    await full.catch(() => {});
    expect(await sql.one("SELECT 1 AS ok")).toEqual({ ok: 1 });
    conn.close();
  });
});

// One cluster for the file, gone when it ends.
afterAll(stopPostgres);

describe.skipIf(pgMissing !== null)("PostgreSQL (postgres://)", () => {
  let db: SqlDb;
  beforeAll(async () => {
    db = await migratedPg();
  }, PG_START_TIMEOUT);
  afterAll(() => db?.close());

  test("says which server it is", () => {
    expect(db.detail).toMatch(/^postgres 1[5-9]\.\d+/);
  });
  test("runs the representative statements with SQLite's results", async () => {
    expect(await scenario(db)).toEqual(EXPECTED);
  });
  test("keeps other work out of a transaction; the outer handle joins it from inside", () => transactionScope(db));
  test("a database the server does not have fails at connect with the server's reason, on one line", async () => {
    const url = new URL(await freshPgDatabase());
    url.pathname = "/no_such_db";
    const error = await openSql(databaseTarget(url.href, "."), { connectTimeout: 5 }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe(
      `DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:${url.port}/no_such_db: database "no_such_db" does not exist (ERR_POSTGRES_SERVER_ERROR)`,
    );
  });
  // Last: it stops this file's server for a moment.
  test(
    "a server that goes away fails queries as unavailable, and the same handle works once it is back",
    async () => {
      const cluster = await postgres();
      await cluster.halt();
      const error = await db.one("SELECT 1 AS x").then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
      await cluster.resume();
      expect(await db.one("SELECT 1 AS x")).toEqual({ x: 1 });
    },
    PG_START_TIMEOUT,
  );
});
