// Workers sharing one database file. A worker process killed with SIGKILL mid-job stops renewing
// its lease; once the lease runs out another worker claims the job (its attempt counted) and
// finishes it, once. Two runners on two connections to the same file, and two worker processes,
// share hundreds of jobs without running any twice or losing one.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "#server/db/connection";
import { sqliteSql } from "#server/db/sql";
import { migrate } from "#server/db/migrate";
import { JobRunner, jobsService } from "#server/modules/jobs/public";
import { waitFor } from "#tests/support/wait";

setDefaultTimeout(60_000);
const dir = mkdtempSync(join(tmpdir(), "di-jobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a worker killed with SIGKILL mid-job loses its lease; another worker finishes the job exactly once", async () => {
  const dbPath = join(dir, "killed.db");
  const marker = join(dir, "attempts.txt");
  const db = openDatabase(dbPath);
  migrate(db);
  const queue = jobsService({ db: sqliteSql(db) });
  const LEASE_MS = 1_500;
  const id = await queue.enqueue({ kind: "test.slow", payload: { n: 1 }, maxAttempts: 3 });

  const child = Bun.spawn(["bun", join(import.meta.dir, "fixtures/slow-worker.ts"), dbPath, marker, String(LEASE_MS)], {
    cwd: join(import.meta.dir, "../.."),
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    await waitFor(
      "the worker process to claim the job",
      async () => (await queue.get(id))?.state === "running" && existsSync(marker),
      30_000,
    );
    const held = (await queue.get(id))!;
    expect(held.leased_by).toBe(`killed-worker:${child.pid}`);
    // Alive, it renews the lease.
    await waitFor("a heartbeat", async () => ((await queue.get(id))?.lease_until ?? 0) > held.lease_until!, 10_000);
  } finally {
    child.kill("SIGKILL");
    await child.exited;
  }
  expect(child.signalCode).toBe("SIGKILL");
  const killedAt = Date.now();
  const leaseUntil = (await queue.get(id))!.lease_until!;
  expect((await queue.get(id))!.state).toBe("running"); // the dead worker still holds it, until the lease runs out

  let runs = 0;
  let finishedAt = 0;
  const rescuer = new JobRunner({
    queue,
    worker: "rescuer",
    leaseMs: LEASE_MS,
    pollMs: 50,
    handlers: {
      "test.slow": {
        run: () => {
          runs++;
          finishedAt = Date.now();
        },
      },
    },
  });
  rescuer.start();
  await waitFor("the job to be done", async () => (await queue.get(id))?.state === "done", 30_000);
  await rescuer.stop();

  const job = (await queue.get(id))!;
  expect(runs).toBe(1);
  expect(job).toMatchObject({ state: "done", attempts: 2, leased_by: null });
  expect(job.last_error).toBe(`The lease of killed-worker:${child.pid} ran out before the job finished`);
  expect(finishedAt).toBeGreaterThanOrEqual(leaseUntil); // not taken while the lease still held
  expect(finishedAt - killedAt).toBeLessThan(LEASE_MS + 5_000);
  expect(readFileSync(marker, "utf8").trim().split("\n")).toEqual([`${id} attempt 1 by ${child.pid}`]);
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
  const queue = jobsService({ db: sqliteSql(db) });
  // Due only once both workers are up, so neither has run them all before the other starts.
  const ids: string[] = [];
  for (let n = 0; n < 300; n++) ids.push(await queue.enqueue({ kind: "test.count", payload: { n }, runAt: Date.now() + 3_600_000 }));
  const outs = [join(dir, "ran-a.txt"), join(dir, "ran-b.txt")];
  const children = outs.map((out) =>
    Bun.spawn(["bun", join(import.meta.dir, "fixtures/count-worker.ts"), dbPath, out, "300"], {
      cwd: join(import.meta.dir, "../.."),
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  await Promise.all(
    children.map(async (c) => {
      const reader = c.stdout.getReader();
      let text = "";
      while (!text.includes("started")) {
        const { value, done } = await reader.read();
        if (done) throw new Error("a worker process ended before it started");
        text += new TextDecoder().decode(value);
      }
      reader.releaseLock();
    }),
  );
  db.query("UPDATE jobs SET run_at = ?").run(Date.now());
  const codes = await Promise.all(children.map((c) => c.exited));
  expect(codes).toEqual([0, 0]);
  const ran = outs.map((out) => (existsSync(out) ? readFileSync(out, "utf8").trim().split("\n").filter(Boolean) : []));
  const all = ran.flat();
  expect(all).toHaveLength(300);
  expect(new Set(all).size).toBe(300);
  expect([...new Set(all)].sort()).toEqual([...ids].sort());
  // Both processes claimed work (the split varies with the machine's load).
  expect(ran.every((r) => r.length > 0)).toBe(true);
  expect(await queue.counts()).toMatchObject({ done: 300, queued: 0, running: 0, failed: 0, dead: 0 });
  for (const id of ids) expect((await queue.get(id))?.attempts).toBe(1);
  closeDatabase(db);
});
