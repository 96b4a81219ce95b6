// `design-intel migrate-to` (issue 30): an embedded install with rows in every table and files
// under DATA_DIR is copied into a new PostgreSQL database and an S3-compatible bucket on loopback.
// Every row arrives with its values (flags as booleans), the tables' own triggers and identities
// work afterwards, every file is in the bucket under its key, and a second run into the same
// database is refused without touching it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { databaseTarget, openSql, type SqlDb } from "#server/db/sql";
import { populate, quote, tables } from "#tests/support/populated-db";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { startS3Server, type S3TestServer } from "#tests/support/s3-server";
import { runCli } from "./support";

const suite = pgMissing ? describe.skip : describe;

suite("migrate-to", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "di-migrate-to-"));
  let s3: S3TestServer;
  let url: string;
  let pg: SqlDb;
  let before: Map<string, Record<string, unknown>[]>;
  let booleans: Map<string, Set<string>>;
  const files = {
    "screenshots/u1/c1/aa11.png": "png bytes",
    "screenshots/u1/c1/filmstrips/s1/000.jpg": "jpeg bytes",
    "backups/design-intel-20260101T000000Z.db": "backup bytes",
  };
  let first: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    const db = openDatabase(join(dataDir, "design-intel.db"));
    migrate(db);
    populate(db);
    before = new Map(tables(db).map((t) => [t, db.query<Record<string, unknown>, []>(`SELECT * FROM ${quote(t)}`).all()]));
    closeDatabase(db);
    for (const [key, body] of Object.entries(files)) {
      mkdirSync(join(dataDir, key, ".."), { recursive: true });
      writeFileSync(join(dataDir, key), body);
    }
    [s3, url] = await Promise.all([startS3Server(), freshPgDatabase()]);
    first = await runCli(["migrate-to", "--database", url, "--storage", `s3://${s3.bucket}/team`], { dataDir, env: s3.env() });
    pg = await openSql(databaseTarget(url, "."), { max: 2 });
    booleans = new Map();
    for (const c of await pg.all<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND data_type = 'boolean'",
    ))
      booleans.set(c.table_name, (booleans.get(c.table_name) ?? new Set()).add(c.column_name));
  }, PG_START_TIMEOUT);

  afterAll(async () => {
    await pg?.close();
    await s3?.close();
    await stopPostgres();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("it says what it copied and what to set next", () => {
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/database: \d+ rows in \d+ tables copied and counted back/);
    expect(first.stdout).toContain("files: 3 copied to s3");
    expect(first.stdout).toContain("DATABASE_URL=<the --database URL> STORAGE_URL=s3://");
    // The URL's password is never printed.
    expect(first.stdout).not.toContain(url);
  });

  test("every row of every table arrives with its values", async () => {
    const differ: string[] = [];
    const norm = (table: string, row: Record<string, unknown>) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(row).map(([k, v]) => [
            k,
            v instanceof Uint8Array ? [...v] : booleans.get(table)?.has(k) && v !== null ? Boolean(v) : v,
          ]),
        ),
      );
    for (const [table, rows] of before) {
      expect(rows.length, table).toBeGreaterThan(0);
      const after = await pg.all<Record<string, unknown>>(`SELECT * FROM ${quote(table)}`);
      const a = rows.map((r) => norm(table, r)).sort();
      const b = after.map((r) => norm(table, r)).sort();
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(`${table}: ${a.length} rows -> ${b.length}: ${a[0]} vs ${b[0]}`);
    }
    expect(differ).toEqual([]);
  });

  test("afterwards the database works as one made by the server: triggers on, sequences past the copied values", async () => {
    await pg.run("INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, 'h', $3)", [
      "new-user",
      "new@example.com",
      "2026-02-01T00:00:00.000Z",
    ]);
    // The trigger gave the new account its personal workspace.
    expect(await pg.one("SELECT id FROM workspaces WHERE personal_user_id = $1", ["new-user"])).toEqual({ id: "new-user" });
    // Identities, and the jobs claim's counter.
    const numbered = await pg.all<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL`,
    );
    expect(numbered.map((r) => `${r.table_name}.${r.column_name}`)).toContain("jobs.claim_seq");
    for (const { table_name: t, column_name: c } of numbered) {
      const max = (await pg.one<{ m: number }>(`SELECT MAX(${c}) AS m FROM ${t}`))!.m;
      const next = (await pg.one<{ n: number }>(`SELECT nextval(pg_get_serial_sequence('${t}', '${c}')) AS n`))!.n;
      expect(next, `${t}.${c}`).toBeGreaterThan(max);
    }
  });

  test("every file is in the bucket under its key and the prefix", async () => {
    const keys = await s3.keys();
    for (const key of Object.keys(files)) expect(keys).toContain(`team/${key}`);
    const store = s3.storage("team");
    expect(new TextDecoder().decode((await store.store.get("backups/design-intel-20260101T000000Z.db"))!)).toBe("backup bytes");
  });

  test("a database that already has accounts is refused, and left as it was", async () => {
    const count = async () => (await pg.one<{ n: number }>("SELECT COUNT(*) AS n FROM users"))!.n;
    const n = await count();
    const again = await runCli(["migrate-to", "--database", url], { dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already has accounts; migrate into a new, empty database");
    expect(await count()).toBe(n);
  });

  test("usage mistakes are named", async () => {
    const none = await runCli(["migrate-to"], { dataDir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--database is required");
    const sqlite = await runCli(["migrate-to", "--database", "sqlite:"], { dataDir });
    expect(sqlite.code).toBe(2);
    expect(sqlite.stderr).toContain("must be a postgres:// URL");
    const bucket = await runCli(["migrate-to", "--database", url, "--storage", "http://x"], { dataDir });
    expect(bucket.code).toBe(2);
    expect(bucket.stderr).toContain("--storage must be s3://bucket or s3://bucket/prefix");
  });
});
