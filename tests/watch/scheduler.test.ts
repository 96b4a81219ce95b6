// The scheduler against a real (in-memory) database and a fake clock: due detection, no overlap,
// one catch-up run after downtime, fairness between owners, zones and DST, and the timer loop.
import { beforeEach, describe, expect, test } from "bun:test";
import { openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { newId } from "#server/lib/ids";
import { HttpError } from "#server/http/errors";
import { DeferRun, Scheduler, SKIP_STILL_RUNNING, type Clock, type ScheduleEvent } from "#server/modules/watch/schedule/scheduler";
import { scheduleService } from "#server/modules/watch/schedule/service";

class FakeClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;
  constructor(public t: number) {}
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.ids;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers = this.timers.filter((x) => x.id !== h);
  };
  /** Moves time forward, firing due timers in order and letting each tick they start finish. */
  async advanceTo(iso: string) {
    const to = Date.parse(iso);
    for (;;) {
      await new Promise((r) => setImmediate(r));
      const next = this.timers.filter((x) => x.at <= to).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = to;
  }
  get pending() {
    return this.timers.length;
  }
}

let db: Db;
let clock: FakeClock;
let started: { comparisonId: string; at: string }[];
let running: Set<string>;
let events: ScheduleEvent[];
let scheduler: Scheduler;
let service: ReturnType<typeof scheduleService>;

function user(): string {
  const id = newId();
  db.query("INSERT INTO users (id, email, password_hash) VALUES (?, ?, 'x')").run(id, `${id}@example.test`);
  return id;
}
function comparison(ownerId: string): string {
  const id = newId();
  db.query(
    "INSERT INTO comparisons (id, owner_id, name, created_at, updated_at) VALUES (?, ?, 'c', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
  ).run(id, ownerId);
  return id;
}
const owns = async (comparisonId: string, ownerId: string) =>
  db.query("SELECT 1 FROM comparisons WHERE id = ? AND owner_id = ?").get(comparisonId, ownerId) !== null;

async function until(cond: () => boolean, what: string) {
  for (let i = 0; i < 1000 && !cond(); i++) await Promise.resolve();
  if (!cond()) throw new Error(`never happened: ${what}`);
}

beforeEach(async () => {
  db = openDatabase(":memory:");
  migrate(db);
  clock = new FakeClock(Date.parse("2026-03-27T12:00:00Z"));
  started = [];
  running = new Set();
  events = [];
  service = scheduleService({ db: sqliteSql(db), ownsComparison: owns, now: clock.now, onChange: () => scheduler.poke() });
  scheduler = new Scheduler({
    repo: service.repo,
    clock,
    isRunning: (id) => running.has(id),
    startRun: (id, trigger) => {
      expect(trigger).toBe("schedule");
      started.push({ comparisonId: id, at: new Date(clock.now()).toISOString() });
    },
    log: (e) => events.push(e),
    // Wake only for slots, so jumping days ahead does not fire thousands of idle checks.
    maxSleepMs: 86_400_000,
  });
});

describe("schedules", () => {
  test("saving computes the next run; another user's comparison is 404; an invalid cron is 400 naming the field", async () => {
    const alice = user();
    const bob = user();
    const c = comparison(alice);
    expect(await service.put(alice, c, "0 9 * * 1", "Europe/Berlin")).toEqual({
      cron: "0 9 * * 1",
      timezone: "Europe/Berlin",
      nextRunAt: "2026-03-30T07:00:00.000Z",
    });
    expect(await service.get(alice, c)).toEqual({ cron: "0 9 * * 1", timezone: "Europe/Berlin", nextRunAt: "2026-03-30T07:00:00.000Z" });
    const as = async (fn: () => unknown) => {
      try {
        await fn();
      } catch (e) {
        return e instanceof HttpError ? [e.status, e.message] : e;
      }
      return "no error";
    };
    expect(await as(() => service.put(bob, c, "0 9 * * 1", "UTC"))).toEqual([404, "Comparison not found"]);
    expect(await as(() => service.remove(bob, c))).toEqual([404, "Comparison not found"]);
    expect(await service.get(bob, c)).toBeNull();
    expect(await as(() => service.put(alice, c, "0 9 * * 1 *", "UTC"))).toEqual([
      400,
      expect.stringContaining("Seconds are not supported"),
    ]);
    expect(await as(() => service.put(alice, c, "0 9 * * 1", "Nowhere/City"))).toEqual([
      400,
      expect.stringContaining('Unknown time zone "Nowhere/City"'),
    ]);
    await service.remove(alice, c);
    expect(await service.get(alice, c)).toBeNull();
  });

  test("a due schedule starts one run and moves to its next slot; nothing runs before it is due", async () => {
    const alice = user();
    const c = comparison(alice);
    await service.put(alice, c, "0 * * * *", "UTC"); // hourly, next 13:00Z
    clock.t = Date.parse("2026-03-27T12:59:59Z");
    expect(await scheduler.tick()).toEqual([]);
    clock.t = Date.parse("2026-03-27T13:00:00Z");
    const [e] = await scheduler.tick();
    expect(e).toMatchObject({
      type: "started",
      comparisonId: c,
      slot: "2026-03-27T13:00:00.000Z",
      nextRunAt: "2026-03-27T14:00:00.000Z",
      missedSlots: 0,
    });
    expect(started).toEqual([{ comparisonId: c, at: "2026-03-27T13:00:00.000Z" }]);
    expect(await scheduler.tick()).toEqual([]); // the same slot never starts twice
    const row = (await service.repo.find(c, alice))!;
    expect(row.last_run_at).toBe("2026-03-27T13:00:00.000Z");
    expect(row.next_run_at).toBe("2026-03-27T14:00:00.000Z");
  });

  test("a slot that comes due while the previous run is still going is skipped and logged", async () => {
    const alice = user();
    const c = comparison(alice);
    await service.put(alice, c, "*/5 * * * *", "UTC");
    clock.t = Date.parse("2026-03-27T12:05:00Z");
    await scheduler.tick();
    running.add(c); // the 12:05 run takes longer than five minutes
    clock.t = Date.parse("2026-03-27T12:10:00Z");
    expect(await scheduler.tick()).toEqual([
      {
        type: "skipped",
        comparisonId: c,
        ownerId: alice,
        slot: "2026-03-27T12:10:00.000Z",
        at: "2026-03-27T12:10:00.000Z",
        nextRunAt: "2026-03-27T12:15:00.000Z",
        reason: SKIP_STILL_RUNNING,
      },
    ]);
    expect(started).toHaveLength(1);
    const row = (await service.repo.find(c, alice))!;
    expect([row.last_skip_at, row.last_skip_reason, row.last_run_at]).toEqual([
      "2026-03-27T12:10:00.000Z",
      SKIP_STILL_RUNNING,
      "2026-03-27T12:05:00.000Z",
    ]);
    running.delete(c);
    clock.t = Date.parse("2026-03-27T12:15:00Z");
    expect((await scheduler.tick()).map((x) => x.type)).toEqual(["started"]);
    expect(started).toHaveLength(2);
  });

  test("a start that startRun refuses is a skip with its reason, and the schedule carries on", async () => {
    const alice = user();
    const c = comparison(alice);
    await service.put(alice, c, "0 * * * *", "UTC");
    const refusing = new Scheduler({
      repo: service.repo,
      clock,
      isRunning: () => false,
      startRun: async () => {
        throw new Error("At least 2 websites are required to run a comparison");
      },
    });
    clock.t = Date.parse("2026-03-27T13:00:00Z");
    const [e] = await refusing.tick();
    expect(e).toMatchObject({
      type: "skipped",
      reason: "the run could not start: At least 2 websites are required to run a comparison",
      nextRunAt: "2026-03-27T14:00:00.000Z",
    });
  });

  test("a full capture queue defers the slot (retried a minute later) instead of losing it until tomorrow", async () => {
    const alice = user();
    const c = comparison(alice);
    await service.put(alice, c, "0 9 * * *", "UTC");
    let full = true;
    const ran: string[] = [];
    const s = new Scheduler({
      repo: service.repo,
      clock,
      isRunning: () => false,
      startRun: () => {
        if (full) throw new DeferRun("The capture queue is full right now. Try again in a few minutes.");
        ran.push(new Date(clock.now()).toISOString());
      },
    });
    clock.t = Date.parse("2026-03-28T09:00:00Z");
    expect(await s.tick()).toEqual([
      {
        type: "deferred",
        comparisonId: c,
        ownerId: alice,
        slot: "2026-03-28T09:00:00.000Z",
        at: "2026-03-28T09:00:00.000Z",
        nextRunAt: "2026-03-28T09:01:00.000Z",
        reason: "deferred: The capture queue is full right now. Try again in a few minutes.",
      },
    ]);
    full = false;
    clock.t = Date.parse("2026-03-28T09:01:00Z");
    expect((await s.tick()).map((e) => [e.type, e.nextRunAt])).toEqual([["started", "2026-03-29T09:00:00.000Z"]]);
    expect(ran).toEqual(["2026-03-28T09:01:00.000Z"]);
  });

  test("after downtime the missed slots make exactly one run at boot", async () => {
    const alice = user();
    const c = comparison(alice);
    await service.put(alice, c, "0 * * * *", "UTC"); // next 13:00Z
    // The server is down from 12:00 to 17:20: the 13:00..17:00 slots (5) were missed.
    clock.t = Date.parse("2026-03-27T17:20:00Z");
    const boot = await scheduler.start();
    expect(boot).toEqual([
      {
        type: "started",
        comparisonId: c,
        ownerId: alice,
        slot: "2026-03-27T13:00:00.000Z",
        at: "2026-03-27T17:20:00.000Z",
        nextRunAt: "2026-03-27T18:00:00.000Z",
        missedSlots: 4,
      },
    ]);
    expect(started).toHaveLength(1);
    expect(await scheduler.tick()).toEqual([]);
    scheduler.stop();
  });

  test("the timer wakes at the next slot, including one saved while it sleeps", async () => {
    const alice = user();
    const c1 = comparison(alice);
    const c2 = comparison(alice);
    await service.put(alice, c1, "0 14 * * *", "UTC");
    await scheduler.start();
    expect(clock.pending).toBe(1);
    await service.put(alice, c2, "30 12 * * *", "UTC"); // earlier than anything planned: poke() re-plans
    await until(() => clock.pending === 1, "re-armed after the save");
    await clock.advanceTo("2026-03-27T12:30:00Z");
    await until(() => started.length === 1, "12:30 run");
    expect(started[0]).toEqual({ comparisonId: c2, at: "2026-03-27T12:30:00.000Z" });
    await clock.advanceTo("2026-03-27T14:00:00Z");
    await until(() => started.length === 2, "14:00 run");
    expect(started[1]).toEqual({ comparisonId: c1, at: "2026-03-27T14:00:00.000Z" });
    await service.remove(alice, c1);
    await service.remove(alice, c2);
    await clock.advanceTo("2026-03-29T00:00:00Z");
    await Promise.resolve();
    expect(started).toHaveLength(2);
    scheduler.stop();
    expect(clock.pending).toBe(0);
  });

  test("comparisons due in the same minute are handed over interleaved by owner", async () => {
    const alice = user();
    const bob = user();
    const carol = user();
    const ids: Record<string, string> = {};
    for (const [owner, name, n] of [
      [alice, "a", 4],
      [bob, "b", 2],
      [carol, "c", 1],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const c = comparison(owner);
        ids[c] = `${name}${i}`;
        await service.put(owner, c, "0 13 * * *", "UTC");
      }
    }
    clock.t = Date.parse("2026-03-27T13:00:00Z");
    await scheduler.tick();
    const order = started.map((s) => ids[s.comparisonId]![0]);
    expect(order).toHaveLength(7);
    // Each owner's first run comes before anyone's second.
    expect(new Set(order.slice(0, 3))).toEqual(new Set(["a", "b", "c"]));
    expect(new Set(order.slice(3, 5))).toEqual(new Set(["a", "b"]));
    expect(order.slice(5)).toEqual(["a", "a"]);
  });

  test("Berlin across both DST changes: '30 2 * * *' runs once a day, at the shifted instant in spring", async () => {
    const alice = user();
    const c = comparison(alice);
    clock.t = Date.parse("2026-03-27T12:00:00Z");
    await service.put(alice, c, "30 2 * * *", "Europe/Berlin");
    await scheduler.start();
    for (const day of ["2026-03-28", "2026-03-29", "2026-03-30", "2026-03-31"]) await clock.advanceTo(`${day}T12:00:00Z`);
    expect(started.map((s) => s.at)).toEqual([
      "2026-03-28T01:30:00.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-03-30T00:30:00.000Z",
      "2026-03-31T00:30:00.000Z",
    ]);
    // Down from 31 March to 23 October: one catch-up run at boot, not ~200.
    scheduler.stop();
    started.length = 0;
    clock.t = Date.parse("2026-10-23T12:00:00Z");
    const [boot] = await scheduler.start();
    expect(boot).toMatchObject({
      type: "started",
      slot: "2026-04-01T00:30:00.000Z",
      missedSlots: 205,
      nextRunAt: "2026-10-24T00:30:00.000Z",
    });
    for (const day of ["2026-10-24", "2026-10-25", "2026-10-26"]) await clock.advanceTo(`${day}T12:00:00Z`);
    // 25 October: 02:30 CEST (00:30Z) only, not again at 02:30 CET (01:30Z).
    expect(started.map((s) => s.at).slice(1)).toEqual(["2026-10-24T00:30:00.000Z", "2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
    scheduler.stop();
  });

  test("schedules go with their comparison", async () => {
    const alice = user();
    const c = comparison(alice);
    await service.put(alice, c, "0 9 * * *", "UTC");
    db.query("DELETE FROM comparisons WHERE id = ?").run(c);
    expect(await service.repo.count()).toBe(0);
  });
});
