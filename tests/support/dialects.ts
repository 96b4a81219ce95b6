// A repository scenario run on both dialects: on a fresh SQLite file first, where `expectOnSqlite`
// checks its answers, then on a fresh PostgreSQL database (tests/support/postgres.ts), which must
// give exactly the same answers. PostgreSQL's part skips, saying why, when its binaries are missing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseTarget, migrateSql, openSql, type SqlDb } from "#server/db/sql";
import { migratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "./postgres";

export function scenarioOnBothDialects<T>(
  name: string,
  scenario: (db: SqlDb) => Promise<T>,
  expectOnSqlite: (answers: T) => void | Promise<void>,
): void {
  let sqliteAnswers: T | undefined;

  describe("SQLite", () => {
    let dir: string;
    let db: SqlDb;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "di-dialects-"));
      db = await openSql(databaseTarget("sqlite:", dir));
      await migrateSql(db);
    });
    afterAll(async () => {
      await db?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test(`${name}: the scenario reads back what it wrote`, async () => {
      sqliteAnswers = await scenario(db);
      await expectOnSqlite(sqliteAnswers);
    });
  });

  afterAll(stopPostgres);

  describe.skipIf(pgMissing !== null)("PostgreSQL", () => {
    let db: SqlDb;
    beforeAll(async () => {
      db = await migratedPg();
    }, PG_START_TIMEOUT);
    afterAll(() => db?.close());

    test(`${name}: the scenario reads back SQLite's answers`, async () => {
      const out = await scenario(db);
      expect(sqliteAnswers).toBeDefined();
      expect(out as unknown).toEqual(sqliteAnswers);
    });
  });
}
