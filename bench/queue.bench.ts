// How the jobs queue scales with worker processes on PostgreSQL: the same batch of jobs run by 1, 2
// and 4 worker processes (bench/queue-worker.ts), each a JobRunner over a pool of its own, one
// attempt at a time, as `design-intel worker` instances would be, against a throwaway PostgreSQL
// cluster on loopback (tests/support/postgres.ts: fsync off, as a test cluster). Jobs belong to 8
// owners and the installation, so every claim does the owners' rotation, and start due at one
// instant (`go`): every runner is asleep until then, already looking at the queue.
//
// The stand-in capture is a fixed WAIT (BENCH_WORK_MS, default 150 ms), not CPU work. A capture
// worker spends its capture waiting on a remote browser (BROWSER_WS_ENDPOINTS, docs/scaling.md),
// and this machine has 2 cores: 4 processes of CPU-bound stand-ins could not run more than twice as
// fast as one whatever the queue did, so the figure would measure the cores. With a wait, an ideal
// queue gives k× at k workers, and what falls short of it is the queue's own cost per job (claim,
// completion, the runner's loop) and the database serving k claimers side by side.
//
// Prints jobs/s per worker count, the speed-up at 2 and 4 against 1, what each process ran, the
// time per job beyond the stand-in's wait at 1 worker, and checks each job ran once. Exits 1 when a
// target is missed: speed-up ≥ 1.8 at 2 workers and ≥ 3.2 at 4 ("the queue and the database are
// not the bottleneck").
// Run: bun bench/queue.bench.ts   (needs PostgreSQL 15+ binaries, as the tests; ~1.5 min)
//      BENCH_JOBS=n (default 200), BENCH_WORK_MS=ms (default 150), BENCH_ROUNDS=n (default 1; medians)
import { join } from "node:path";
import { databaseTarget, migrateSql, openSql } from "#server/db/sql";
import { newId } from "#server/lib/ids";
import { jobsService } from "#server/modules/jobs/public";
import { pgMissing, postgres, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";
import { loadNow, median, verdict } from "./lib";

const JOBS = Number(process.env.BENCH_JOBS ?? 200);
const WORK_MS = Number(process.env.BENCH_WORK_MS ?? 150);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const WORKERS = [1, 2, 4];
const OWNERS = 8;
const TARGETS: Record<number, number> = { 2: 1.8, 4: 3.2 };
/** JobRunner's default poll: within it every runner has read the new due time and sleeps until it. */
const RUNNER_POLL_MS = 1_000;

if (pgMissing) {
  console.error(pgMissing);
  process.exit(1);
}

/** A child's stdout as it arrives, so the bench can wait for a word and read the rest at the end. */
function output(child: Bun.Subprocess<"ignore", "pipe", "inherit">) {
  let text = "";
  const done = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) text += decoder.decode(chunk);
  })();
  return {
    text: () => text,
    done,
    printed: (word: string) => waitFor(`a worker to print "${word}"`, () => text.includes(word), 60_000, 20),
  };
}

const pg = await postgres();
const template = await (async () => {
  const url = await pg.freshDatabase();
  const db = await openSql(databaseTarget(url, "."), { max: 1 });
  await migrateSql(db);
  await db.close();
  return new URL(url).pathname.slice(1);
})();

interface Round {
  workers: number;
  seconds: number;
  perSecond: number;
  split: number[];
}

async function round(workers: number): Promise<Round> {
  const url = await pg.freshDatabase(template);
  const db = await openSql(databaseTarget(url, "."), { max: 2 });
  const queue = jobsService({ db });
  const owners: (string | null)[] = [null];
  for (let i = 0; i < OWNERS; i++) {
    const id = newId();
    await db.run("INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')", [id, `${id}@example.test`]);
    owners.push(id);
  }
  const later = Date.now() + 3_600_000;
  for (let n = 0; n < JOBS; n++)
    await queue.enqueue({ kind: "bench.capture", payload: { n }, ownerId: owners[n % owners.length], runAt: later });

  const children = Array.from({ length: workers }, () =>
    Bun.spawn(["bun", join(import.meta.dir, "queue-worker.ts"), url, String(WORK_MS)], {
      cwd: join(import.meta.dir, ".."),
      stdout: "pipe",
      stderr: "inherit",
    }),
  );
  const outs = children.map(output);
  try {
    await Promise.all(outs.map((o) => o.printed("ready")));
    const go = Date.now() + RUNNER_POLL_MS + 500;
    await db.run("UPDATE jobs SET run_at = $1", [go]);
    await waitFor("every job done", async () => (await queue.counts()).done === JOBS, 600_000, 50);
    const last = (await db.one<{ t: number }>("SELECT MAX(updated_at) AS t FROM jobs"))!.t;
    const once = await db.all<{ attempts: number; n: number }>("SELECT attempts, COUNT(*) AS n FROM jobs GROUP BY attempts");
    if (once.length !== 1 || once[0]!.attempts !== 1) throw new Error(`a job ran more than once: ${JSON.stringify(once)}`);
    for (const c of children) c.kill("SIGTERM");
    await Promise.all(outs.map((o) => o.done));
    const split = outs.map((o) => Number(/ran (\d+)/.exec(o.text())?.[1] ?? NaN));
    // What the processes ran adds up to the batch: no job ran twice, none was left.
    if (split.reduce((a, b) => a + b, 0) !== JOBS) throw new Error(`the workers ran ${split.join(" + ")} jobs, not ${JOBS}`);
    const seconds = (last - go) / 1000;
    return { workers, seconds, perSecond: JOBS / seconds, split };
  } finally {
    for (const c of children) c.kill("SIGTERM");
    await Promise.all(children.map((c) => c.exited));
    await db.close();
  }
}

console.log(`queue scaling: ${JOBS} jobs, stand-in capture waits ${WORK_MS} ms, ${OWNERS} owners + the installation; load ${loadNow()}`);
const results = new Map<number, Round[]>(WORKERS.map((w) => [w, []]));
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const workers of WORKERS) {
      const res = await round(workers);
      results.get(workers)!.push(res);
      const ideal = WORK_MS > 0 ? ((workers * 1000) / WORK_MS).toFixed(2) : "—";
      console.log(
        `  ${workers} worker${workers > 1 ? "s" : " "}: ${res.seconds.toFixed(2)} s, ${res.perSecond.toFixed(2)} jobs/s (ideal ${ideal}); each ran ${res.split.join(", ")}; load ${loadNow()}`,
      );
    }
  }
} finally {
  await stopPostgres();
}

const rate = (w: number) => median(results.get(w)!.map((r) => r.perSecond));
const base = rate(1);
console.log(`per job beyond the stand-in's wait, 1 worker: ${(1000 / base - WORK_MS).toFixed(1)} ms`);
for (const w of [2, 4]) verdict(`speed-up at ${w} workers (jobs/s vs 1 worker)`, rate(w) / base, { atLeast: TARGETS[w] });
console.log(`load ${loadNow()}`);
