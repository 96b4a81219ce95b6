// The worker loop in real time: a poke wakes it at once, so does the end of an attempt (the next
// job is claimed without waiting for a poll), a failing job is retried after its backoff
// and goes dead with the kind's hook told, and an attempt whose lease was taken is told to stop
// (its signal aborts) and cannot complete the job that the new holder finished.
import { beforeEach, expect, test } from "bun:test";
import { openDatabase, type Db } from "#server/db/connection";
import { sqliteSql } from "#server/db/sql";
import { migrate } from "#server/db/migrate";
import { JobRunner, jobsService, type JobsService } from "#server/modules/jobs/public";
import { runAttempt } from "#server/modules/jobs/runner";
import { waitFor } from "#tests/support/wait";

let db: Db;
let q: JobsService;
beforeEach(async () => {
  db = openDatabase(":memory:");
  migrate(db);
  q = jobsService({ db: sqliteSql(db) });
});

test("a poke wakes the runner at once (it polls only every 10 s here)", async () => {
  const seen: number[] = [];
  const runner = new JobRunner({ queue: q, pollMs: 10_000, handlers: { echo: { run: (p: { n: number }) => void seen.push(p.n) } } });
  runner.start();
  await Bun.sleep(50); // asleep now, nothing queued
  const started = Date.now();
  const id = await q.enqueue({ kind: "echo", payload: { n: 7 } });
  runner.poke();
  await waitFor("the job", async () => (await q.get(id))?.state === "done", 5_000, 5);
  expect(Date.now() - started).toBeLessThan(1_000);
  await runner.stop();
  expect(seen).toEqual([7]);
});

test("a runner that finishes an attempt claims the next job at once, not at its next poll (10 s here)", async () => {
  const ids: string[] = [];
  for (let n = 0; n < 20; n++) ids.push(await q.enqueue({ kind: "work", payload: { n } }));
  const runner = new JobRunner({ queue: q, pollMs: 10_000, concurrency: 1, handlers: { work: { run: () => Bun.sleep(10) } } });
  const started = Date.now();
  runner.start();
  await waitFor("every job done", async () => (await q.counts()).done === 20, 8_000, 5);
  // 20 attempts of 10 ms one after another; waiting a poll between two would take 10 s each.
  expect(Date.now() - started).toBeLessThan(3_000);
  await runner.stop();
});

test("a failing job is retried after its backoff, then dead with the hook told; others keep running meanwhile", async () => {
  const tries: number[] = [];
  const dead: string[] = [];
  const runner = new JobRunner({
    queue: q,
    pollMs: 10_000,
    handlers: {
      broken: {
        run: () => {
          tries.push(Date.now());
          throw new Error("still broken");
        },
        backoff: () => 150,
        dead: (job) => dead.push(`${job.id}:${job.attempts}:${job.last_error}`),
      },
      fine: { run: () => "ok" },
    },
  });
  const broken = await q.enqueue({ kind: "broken", payload: null, maxAttempts: 3 });
  const fine = await q.enqueue({ kind: "fine", payload: null });
  runner.start();
  await waitFor("the broken job to die", async () => (await q.get(broken))?.state === "dead", 10_000, 10);
  await runner.stop();
  expect((await q.get(fine))?.state).toBe("done");
  expect(tries).toHaveLength(3);
  expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(140);
  expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(140);
  expect(dead).toEqual([`${broken}:3:still broken`]);
});

test("an attempt whose lease was taken is aborted, and only the new holder's completion counts", async () => {
  const id = await q.enqueue({ kind: "slow", payload: null });
  const first = (await q.claim(["slow"], "w1", 60)).job!;
  let aborted = false;
  const attempt = runAttempt(first, {
    queue: q,
    leaseMs: 60,
    at: Date.now(),
    handlers: {
      slow: {
        run: (_p, ctx) =>
          new Promise<void>((resolve) =>
            ctx.signal.addEventListener("abort", () => {
              aborted = true;
              resolve();
            }),
          ),
      },
    },
  });
  // The first worker stalls (no heartbeat lands before the lease is gone): another takes the job.
  db.query("UPDATE jobs SET lease_until = 0 WHERE id = ?").run(id);
  const second = (await q.claim(["slow"], "w2", 60_000)).job!;
  expect(second.attempts).toBe(2);
  expect(await q.complete(second)).toBe(true);
  expect(await attempt).toEqual({ id, state: "lost" });
  expect(aborted).toBe(true);
  expect(await q.get(id)).toMatchObject({ state: "done", attempts: 2 });
});
