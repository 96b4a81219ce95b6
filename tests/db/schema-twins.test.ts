// Every SQLite migration has a PostgreSQL twin (migrations/pg/, docs/decisions/0020-postgres-dialect.md),
// and the two schemas they build are the same: tables, columns (type family and nullability),
// primary keys, unique constraints, named indexes, foreign keys and triggers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { migrations } from "#server/db/migrations";
import { migrateSql, type SqlDb } from "#server/db/sql";
import { pgMigrations } from "#server/db/sql/pg-migrations";
import { migratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { ANNOUNCE_TRIGGER, differences, postgresShape, type Shape, sqliteShape } from "./schema-shape";

test("every SQLite migration has a PostgreSQL twin of the same version and name, and no twin is orphaned", () => {
  const names = (list: { version: number; name: string }[]) => list.map((m) => `${m.version} ${m.name}`).sort();
  expect(names(pgMigrations)).toEqual(names(migrations));
});

function sqliteSchema(): Shape {
  const db = openDatabase(":memory:");
  try {
    migrate(db);
    return sqliteShape(db);
  } finally {
    db.close();
  }
}

// CI installs PostgreSQL (scripts/bootstrap.sh --test): there a skip would hide the dialect's tests.
test.if(process.env.CI === "true")("CI has the PostgreSQL binaries", () => {
  expect(pgMissing).toBeNull();
});

test("the shape comparison sees a column one side lacks", () => {
  const lite = sqliteSchema();
  const other = structuredClone(lite);
  delete other.tables.users!.columns.token_version;
  expect(differences(lite, other)).toEqual(["users.token_version: only in sqlite"]);
});

// What PostgreSQL has that SQLite does without, each for a reason: the jobs claim numbers its
// claims from a sequence there, where claims run side by side (migrations/pg/0026); SQLite's claims
// run one at a time and take one past the largest claim_seq. The other, the trigger on every table
// that announces a commit to the other instances (migrations/pg/0028), has a test of its own below.
const POSTGRES_ONLY = ["sequence jobs_claim_counter owned by jobs.claim_seq: only in postgres"];

test("the shape comparison sees a sequence one side lacks", () => {
  const lite = sqliteSchema();
  expect(differences({ ...lite, sequences: ["s owned by t.c"] }, lite)).toEqual(["sequence s owned by t.c: only in sqlite"]);
});

// One cluster for the file, gone when it ends.
afterAll(stopPostgres);

describe.skipIf(pgMissing !== null)("against PostgreSQL", () => {
  let pg: SqlDb;
  beforeAll(async () => {
    pg = await migratedPg();
  }, PG_START_TIMEOUT);
  afterAll(() => pg?.close());

  test("the SQLite and PostgreSQL schemas match", async () => {
    const lite = sqliteSchema();
    const post = await postgresShape(pg);
    expect(differences(lite, post)).toEqual(POSTGRES_ONLY);
    // The comparison saw the whole schema, not two empty ones.
    expect(Object.keys(post.tables).length).toBeGreaterThanOrEqual(30);
    expect(Object.keys(post.tables).sort()).toEqual(Object.keys(lite.tables).sort());
  });

  // Every table's writes announce themselves at commit (migrations/pg/0028): a table without the
  // trigger would change under the other instances' caches unheard (src/db/change-stamp.ts). A
  // migration that adds a table adds its trigger too.
  test(`every PostgreSQL table has the ${ANNOUNCE_TRIGGER} trigger`, async () => {
    const post = await postgresShape(pg);
    expect(post.announced).toEqual(Object.keys(post.tables).sort());
  });

  test("a write announces itself once, at commit, whatever number of tables and rows it touched", async () => {
    const heard: string[] = [];
    const sub = await pg.listen("di_changes", (payload) => payload === "" && heard.push(payload));
    try {
      await pg.tx(async (tx) => {
        await tx.run("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', 't'), ('b', '2', 't')");
        await tx.run("UPDATE settings SET value = '3'");
        await tx.run("DELETE FROM rate_windows");
        await Bun.sleep(50);
        // Not before the commit.
        expect(heard).toEqual([]);
      });
      const deadline = Date.now() + 5_000;
      while (!heard.length && Date.now() < deadline) await Bun.sleep(5);
      await Bun.sleep(50);
      expect(heard).toEqual([""]);
      // A rolled-back write says nothing.
      await pg
        .tx(async (tx) => {
          await tx.run("DELETE FROM settings");
          throw new Error("undo");
        })
        .catch(() => {});
      await Bun.sleep(100);
      expect(heard).toEqual([""]);
    } finally {
      await sub.unlisten();
    }
  });

  test("running the PostgreSQL migrations again applies nothing", async () => {
    expect(await migrateSql(pg)).toEqual([]);
  });
});
