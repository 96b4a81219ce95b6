// The jobs table as a queue, driven with explicit times: claim order (owners in turn, measured),
// leases that run out, retries with backoff, dead after the last attempt, the console's retry, and
// that an attempt whose lease was taken can no longer finish the job.
import { beforeEach, describe, expect, test } from "bun:test";
import { openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { newId } from "#server/lib/ids";
import { HttpError } from "#server/http/errors";
import { drain, exponentialBackoff, GiveUp, type JobHandlers } from "#server/modules/jobs/public";
import { jobsService, type JobsService } from "#server/modules/jobs/service";
import { expectOwnersTakeTurns } from "./support";

const T0 = Date.parse("2026-03-02T08:00:00.000Z");
let db: Db;
let q: JobsService;
let now: number;

const user = () => {
  const id = newId();
  db.query("INSERT INTO users (id, email, password_hash) VALUES (?, ?, 'x')").run(id, `${id}@example.test`);
  return id;
};

beforeEach(async () => {
  db = openDatabase(":memory:");
  migrate(db);
  now = T0;
  q = jobsService({ db: sqliteSql(db), now: () => now });
});

describe("claim", () => {
  test("due jobs only, oldest first within an owner; nothing due → null", async () => {
    const a = await q.enqueue({ kind: "k", payload: 1 });
    const later = await q.enqueue({ kind: "k", payload: 2, runAt: T0 + 5_000 });
    await q.enqueue({ kind: "other", payload: 3 });
    const first = (await q.claim(["k"], "w1", 1_000)).job!;
    expect(first).toMatchObject({ id: a, state: "running", attempts: 1, leased_by: "w1", lease_until: T0 + 1_000 });
    expect((await q.claim(["k"], "w1", 1_000)).job).toBeNull();
    expect(await q.complete(first)).toBe(true);
    now = T0 + 5_000;
    expect((await q.claim(["k"], "w1", 1_000)).job?.id).toBe(later);
  });

  test("owners take turns: a burst of 30 from one owner does not hold back two others (measured)", async () => {
    await expectOwnersTakeTurns(q, [user(), user(), user()], () => (now += 1));
  });

  test("an owner that arrives later goes ahead of one that has been served", async () => {
    const [a, b] = [user(), user()];
    for (let i = 0; i < 5; i++) await q.enqueue({ kind: "k", payload: i, ownerId: a });
    const j1 = (await q.claim(["k"], "w", 60_000)).job!;
    await q.complete(j1);
    await q.enqueue({ kind: "k", payload: "b", ownerId: b });
    expect((await q.claim(["k"], "w", 60_000)).job!.owner_id).toBe(b);
  });
});

describe("leases", () => {
  test("a lease that runs out goes back to queued with the attempt counted; the old holder can no longer finish", async () => {
    const id = await q.enqueue({ kind: "k", payload: null, maxAttempts: 3 });
    const first = (await q.claim(["k"], "w1", 1_000)).job!;
    now = T0 + 500;
    expect(await q.heartbeat(first, 1_000)).toBe(true); // renewed to T0 + 1500
    now = T0 + 1_400;
    expect((await q.claim(["k"], "w2", 1_000)).job).toBeNull(); // still held
    now = T0 + 1_501;
    const { job: second, expired } = await q.claim(["k"], "w2", 1_000);
    expect(expired.map((j) => [j.id, j.state])).toEqual([[id, "queued"]]);
    expect(second).toMatchObject({ id, attempts: 2, leased_by: "w2" });
    // w1 wakes up: it holds nothing any more.
    expect(await q.heartbeat(first, 1_000)).toBe(false);
    expect(await q.complete(first)).toBe(false);
    expect(await q.fail(first, "late", 0)).toBeNull();
    expect(await q.complete(second!)).toBe(true);
    expect(await q.complete(second!)).toBe(false); // once
    expect(await q.get(id)).toMatchObject({ state: "done", attempts: 2, last_error: "The lease of w1 ran out before the job finished" });
  });

  test("a lease that runs out on the last attempt makes the job dead", async () => {
    const id = await q.enqueue({ kind: "k", payload: null, maxAttempts: 1 });
    await q.claim(["k"], "w1", 1_000);
    now = T0 + 2_000;
    const { job, expired } = await q.claim(["k"], "w2", 1_000);
    expect(job).toBeNull();
    expect(expired.map((j) => [j.id, j.state])).toEqual([[id, "dead"]]);
  });
});

describe("retries", () => {
  test("a failed attempt is retried after its backoff; dead after the last; the console's retry starts over", async () => {
    const id = await q.enqueue({ kind: "k", payload: null, maxAttempts: 3 });
    const backoff = exponentialBackoff(1_000);
    const seen: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const job = (await q.claim(["k"], "w", 60_000)).job!;
      expect(job.attempts).toBe(attempt);
      const row = (await q.fail(job, new Error(`boom ${attempt}`), backoff(attempt)))!;
      seen.push(`${row.state}@${row.run_at - now}`);
      expect((await q.claim(["k"], "w", 60_000)).job).toBeNull(); // not before its time
      now = row.run_at;
    }
    expect(seen).toEqual(["failed@1000", "failed@2000", "dead@4000"]);
    expect(await q.get(id)).toMatchObject({ state: "dead", attempts: 3, last_error: "boom 3" });
    expect((await q.list("dead")).map((j) => j.id)).toEqual([id]);
    expect(await q.list("failed")).toEqual([]);

    const view = await q.retry(id);
    expect(view).toMatchObject({ id, state: "queued", attempts: 0, lastError: "boom 3" });
    expect((await q.claim(["k"], "w", 60_000)).job?.attempts).toBe(1);
    const status = async (fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (e) {
        return e instanceof HttpError ? e.status : e;
      }
    };
    expect(await status(() => q.retry(id))).toBe(409); // running, not dead
    expect(await status(() => q.retry("nope"))).toBe(404);
  });

  test("a dedupe key allows one live job; a finished one does not block the next", async () => {
    const a = await q.enqueue({ kind: "k", payload: 1, dedupeKey: "x" });
    expect(await q.enqueue({ kind: "k", payload: 2, dedupeKey: "x" })).toBe(a);
    await q.complete((await q.claim(["k"], "w", 1_000)).job!);
    const b = await q.enqueue({ kind: "k", payload: 3, dedupeKey: "x" });
    expect(b).not.toBe(a);
  });
});

describe("drain", () => {
  test("runs each job once, retries with the handler's backoff on its own time line, reports dead jobs", async () => {
    let calls = 0;
    const dead: string[] = [];
    const waits: number[] = [];
    const handlers: JobHandlers = {
      flaky: {
        run: (p: { failTimes: number }, ctx) => {
          calls++;
          if (ctx.job.attempts <= p.failTimes) throw new Error(`attempt ${ctx.job.attempts} failed`);
          return "ok";
        },
        backoff: (n) => [2_000, 10_000, 60_000][n - 1]!,
        dead: (job) => dead.push(job.id),
      },
      never: { run: () => Promise.reject(new GiveUp("not fixable")), dead: (job) => dead.push(job.id) },
    };
    const ok = await q.enqueue({ kind: "flaky", payload: { failTimes: 2 }, maxAttempts: 4 });
    const bad = await q.enqueue({ kind: "flaky", payload: { failTimes: 9 }, maxAttempts: 4 });
    const hopeless = await q.enqueue({ kind: "never", payload: null, maxAttempts: 4 });
    const outcomes = await drain({ queue: q, handlers, ids: [ok, bad, hopeless], sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([2_000, 10_000, 60_000]);
    expect(calls).toBe(3 + 4);
    expect(await q.get(ok)).toMatchObject({ state: "done", attempts: 3, last_error: "attempt 2 failed" });
    expect(await q.get(bad)).toMatchObject({ state: "dead", attempts: 4 });
    expect(await q.get(hopeless)).toMatchObject({ state: "dead", attempts: 1, last_error: "not fixable" });
    expect(dead.sort()).toEqual([bad, hopeless].sort());
    expect(outcomes.filter((o) => o.id === ok).map((o) => o.state)).toEqual(["failed", "failed", "done"]);
  });
});

test("a dead job whose work was queued again meanwhile cannot be retried (409), so it never runs twice", async () => {
  const first = await q.enqueue({ kind: "k", payload: 1, dedupeKey: "digest:u1", maxAttempts: 1 });
  await q.fail((await q.claim(["k"], "w", 1_000)).job!, "down", 0);
  expect((await q.get(first))?.state).toBe("dead");
  const again = await q.enqueue({ kind: "k", payload: 2, dedupeKey: "digest:u1" });
  expect(again).not.toBe(first);
  let status = 0;
  try {
    await q.retry(first);
  } catch (e) {
    status = e instanceof HttpError ? e.status : -1;
    expect((e as Error).message).toBe("The same work is already queued");
  }
  expect(status).toBe(409);
  expect((await q.get(first))?.state).toBe("dead");
});
