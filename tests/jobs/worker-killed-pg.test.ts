// Worker processes sharing one PostgreSQL database, each with a pool of its own. A worker process
// killed with SIGKILL mid-job stops renewing its lease; once the lease runs out another worker
// claims the job (its attempt counted) and finishes it, once. Three worker processes share 300
// jobs, claiming side by side, without running any twice or losing one.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseTarget, migrateSql, openSql } from "#server/db/sql";
import { JobRunner, jobsService } from "#server/modules/jobs/public";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

setDefaultTimeout(90_000);
const dir = mkdtempSync(join(tmpdir(), "di-jobs-pg-"));
afterAll(async () => {
  await stopPostgres();
  rmSync(dir, { recursive: true, force: true });
});

const root = join(import.meta.dir, "../..");

/** A fresh migrated database: its URL, and a pool on it for the test's own reads. */
async function database() {
  const url = await freshPgDatabase();
  const db = await openSql(databaseTarget(url, "."), { max: 3 });
  await migrateSql(db);
  return { url, db };
}

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

describe.skipIf(pgMissing !== null)("worker processes on PostgreSQL", () => {
  test(
    "a worker killed with SIGKILL mid-job loses its lease; another worker finishes the job exactly once",
    async () => {
      const { url, db } = await database();
      const marker = join(dir, "attempts.txt");
      const queue = jobsService({ db });
      const LEASE_MS = 1_500;
      const id = await queue.enqueue({ kind: "test.slow", payload: { n: 1 }, maxAttempts: 3 });

      const child = Bun.spawn(["bun", join(import.meta.dir, "fixtures/slow-worker.ts"), url, marker, String(LEASE_MS)], {
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
      await db.close();
    },
    PG_START_TIMEOUT,
  );

  test(
    "three worker processes, each with its own pool: 300 jobs, each run and completed once, none lost",
    async () => {
      const { url, db } = await database();
      const queue = jobsService({ db });
      // Due only once every worker is up, so none has run them all before the others start.
      const ids: string[] = [];
      for (let n = 0; n < 300; n++) ids.push(await queue.enqueue({ kind: "test.count", payload: { n }, runAt: Date.now() + 3_600_000 }));
      const outs = ["a", "b", "c"].map((w) => join(dir, `ran-${w}.txt`));
      const children = outs.map((out) =>
        Bun.spawn(["bun", join(import.meta.dir, "fixtures/count-worker.ts"), url, out, "300"], {
          cwd: root,
          stdout: "pipe",
          stderr: "pipe",
        }),
      );
      await Promise.all(children.map((c) => printed(c, "started")));
      await db.run("UPDATE jobs SET run_at = $1", [Date.now()]);
      const codes = await Promise.all(children.map((c) => c.exited));
      expect(codes).toEqual([0, 0, 0]);
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
      await db.close();
    },
    PG_START_TIMEOUT,
  );
});
