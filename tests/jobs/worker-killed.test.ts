// Workers sharing one database file. A worker process killed with SIGKILL mid-job stops renewing
// its lease; once the lease runs out another worker claims the job (its attempt counted) and
// finishes it, once. Two runners on two connections to the same file, and two worker processes,
// share hundreds of jobs without running any twice or losing one.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "#server/db/connection";
import { sqliteSql } from "#server/db/sql";
import { migrate } from "#server/db/migrate";
import { JobRunner, jobsService } from "#server/modules/jobs/public";
import { waitFor } from "#tests/support/wait";
import { killedWorkerFinishedOnce, processesShareJobs } from "./process-scenarios";

setDefaultTimeout(60_000);
const dir = mkdtempSync(join(tmpdir(), "di-jobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a worker killed with SIGKILL mid-job loses its lease; another worker finishes the job exactly once", async () => {
  const dbPath = join(dir, "killed.db");
  const db = openDatabase(dbPath);
  migrate(db);
  await killedWorkerFinishedOnce(sqliteSql(db), dbPath, dir);
  closeDatabase(db);
});

test("two runners on two connections to one file: 200 jobs, each run and completed once, both runners working", async () => {
  const dbPath = join(dir, "shared.db");
  const a = openDatabase(dbPath);
  migrate(a);
  const b = openDatabase(dbPath);
  const qa = jobsService({ db: sqliteSql(a) });
  const qb = jobsService({ db: sqliteSql(b) });
  const ids: string[] = [];
  for (let n = 0; n < 200; n++) ids.push(await qa.enqueue({ kind: "test.count", payload: { n } }));
  const runs = new Map<number, string[]>();
  const runner = (name: string, queue: typeof qa) =>
    new JobRunner({
      queue,
      worker: name,
      concurrency: 3,
      pollMs: 5,
      handlers: {
        "test.count": {
          async run(p: { n: number }) {
            runs.set(p.n, [...(runs.get(p.n) ?? []), name]);
            await Bun.sleep(p.n % 3); // attempts overlap across the two runners
          },
        },
      },
    });
  const one = runner("one", qa);
  const two = runner("two", qb);
  one.start();
  two.start();
  await waitFor("every job done", async () => (await qb.counts()).done === 200, 30_000);
  await Promise.all([one.stop(), two.stop()]);

  expect([...runs.keys()].sort((x, y) => x - y)).toEqual(ids.map((_, n) => n));
  expect([...runs.values()].every((by) => by.length === 1)).toBe(true);
  const byRunner = (name: string) => [...runs.values()].filter((by) => by[0] === name).length;
  expect(byRunner("one")).toBeGreaterThan(0);
  expect(byRunner("two")).toBeGreaterThan(0);
  for (const id of ids) expect(await qa.get(id)).toMatchObject({ state: "done", attempts: 1 });
  b.close();
  closeDatabase(a);
});

test("two worker processes on one file: 300 jobs, each run once, none lost", async () => {
  const dbPath = join(dir, "processes.db");
  const db = openDatabase(dbPath);
  migrate(db);
  await processesShareJobs(sqliteSql(db), dbPath, dir, 2);
  closeDatabase(db);
});
