// Worker processes sharing one PostgreSQL database, each with a pool of its own. A worker process
// killed with SIGKILL mid-job stops renewing its lease; once the lease runs out another worker
// claims the job (its attempt counted) and finishes it, once. Three worker processes share 300
// jobs, claiming side by side, without running any twice or losing one.
import { afterAll, describe, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseTarget, migrateSql, openSql } from "#server/db/sql";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { killedWorkerFinishedOnce, processesShareJobs } from "./process-scenarios";

setDefaultTimeout(90_000);
const dir = mkdtempSync(join(tmpdir(), "di-jobs-pg-"));
afterAll(async () => {
  await stopPostgres();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh migrated database: its URL, and a pool on it for the test's own reads. */
async function database() {
  const url = await freshPgDatabase();
  const db = await openSql(databaseTarget(url, "."), { max: 3 });
  await migrateSql(db);
  return { url, db };
}

describe.skipIf(pgMissing !== null)("worker processes on PostgreSQL", () => {
  test(
    "a worker killed with SIGKILL mid-job loses its lease; another worker finishes the job exactly once",
    async () => {
      const { url, db } = await database();
      await killedWorkerFinishedOnce(db, url, dir);
      await db.close();
    },
    PG_START_TIMEOUT,
  );

  test(
    "three worker processes, each with its own pool: 300 jobs, each run and completed once, none lost",
    async () => {
      const { url, db } = await database();
      await processesShareJobs(db, url, dir, 3);
      await db.close();
    },
    PG_START_TIMEOUT,
  );
});
