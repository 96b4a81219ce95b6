// The worker-process scenarios of the jobs queue, the same on a SQLite file and on PostgreSQL: each
// test file opens its database and names it to the fixture workers (a file path or a postgres:// URL).
import { expect } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { JobRunner, jobsService } from "#server/modules/jobs/public";
import { waitFor } from "#tests/support/wait";

const root = join(import.meta.dir, "../..");
const fixture = (name: string) => join(import.meta.dir, "fixtures", name);

/** Resolves once the process has printed `word` (it is up and its runner started). */
async function printed(child: Bun.Subprocess<"ignore", "pipe", "pipe">, word: string): Promise<void> {
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes(word)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`a worker process ended before it printed "${word}": ${await new Response(child.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
}

/**
 * A worker process killed with SIGKILL mid-job stops renewing its lease; once the lease runs out
 * another worker claims the job (its attempt counted) and finishes it, once.
 */
export async function killedWorkerFinishedOnce(db: SqlDb, target: string, dir: string): Promise<void> {
  const marker = join(dir, "attempts.txt");
  const queue = jobsService({ db });
  const LEASE_MS = 1_500;
  const id = await queue.enqueue({ kind: "test.slow", payload: { n: 1 }, maxAttempts: 3 });

  const child = Bun.spawn(["bun", fixture("slow-worker.ts"), target, marker, String(LEASE_MS)], {
    cwd: root,
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
}

/** `workers` worker processes share 300 jobs, claiming side by side: each run and completed once, none lost. */
export async function processesShareJobs(db: SqlDb, target: string, dir: string, workers: number): Promise<void> {
  const queue = jobsService({ db });
  // Due only once every worker is up, so none has run them all before the others start.
  const ids: string[] = [];
  for (let n = 0; n < 300; n++) ids.push(await queue.enqueue({ kind: "test.count", payload: { n }, runAt: Date.now() + 3_600_000 }));
  const outs = Array.from({ length: workers }, (_, w) => join(dir, `ran-${w}.txt`));
  const children = outs.map((out) =>
    Bun.spawn(["bun", fixture("count-worker.ts"), target, out, "300"], { cwd: root, stdout: "pipe", stderr: "pipe" }),
  );
  await Promise.all(children.map((c) => printed(c, "started")));
  await db.run("UPDATE jobs SET run_at = $1", [Date.now()]);
  expect(await Promise.all(children.map((c) => c.exited))).toEqual(outs.map(() => 0));
  const ran = outs.map((out) => (existsSync(out) ? readFileSync(out, "utf8").trim().split("\n").filter(Boolean) : []));
  const all = ran.flat();
  // Written as each attempt starts: a job claimed twice would be here twice.
  expect(all).toHaveLength(300);
  expect(new Set(all).size).toBe(300);
  expect([...new Set(all)].sort()).toEqual([...ids].sort());
  // Every process claimed work (the split varies with the machine's load).
  expect(ran.every((r) => r.length > 0)).toBe(true);
  expect(await queue.counts()).toMatchObject({ done: 300, queued: 0, running: 0, failed: 0, dead: 0 });
  expect(await db.all("SELECT attempts, COUNT(*) AS n FROM jobs GROUP BY attempts")).toEqual([{ attempts: 1, n: 300 }]);
}
