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
import { differences, postgresShape, type Shape, sqliteShape } from "./schema-shape";

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
// run one at a time and take one past the largest claim_seq.
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

  test("running the PostgreSQL migrations again applies nothing", async () => {
    expect(await migrateSql(pg)).toEqual([]);
  });
});
