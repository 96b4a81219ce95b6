// Two instances' watch services on one PostgreSQL database: the one scheduling re-plans as soon as
// the other saves or removes a schedule (NOTIFY on design_intel_schedules), rather than at its next
// look a minute later. Its clock is the test's, so the re-plan is seen as the wake-up it arms.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SqlDb } from "#server/db/sql";
import type { Clock } from "#server/modules/watch/schedule/scheduler";
import { watchService } from "#server/modules/watch/service";
import { migratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";
import { waitFor } from "#tests/support/wait";

const suite = pgMissing ? describe.skip : describe;
const OWNER = "poke-owner";
const COMPARISON = "0190c0de-0000-7000-8000-00000000cccc";

/** Real time moved on by `skip`; wake-ups are recorded, and run when the test says. */
function recordingClock() {
  const timers = new Map<number, { fn: () => void; at: number }>();
  let next = 0;
  let offset = 0;
  const clock: Clock = {
    now: () => Date.now() + offset,
    setTimeout: (fn, ms) => {
      timers.set(++next, { fn, at: clock.now() + ms });
      return next;
    },
    clearTimeout: (h) => void timers.delete(h as number),
  };
  /** The one armed wake-up (the scheduler keeps one). */
  const armed = () => [...timers.values()].at(-1) ?? null;
  /** Moves the clock to `at`. */
  const skipTo = (at: number) => void (offset = at - Date.now());
  return { clock, armed, skipTo };
}

suite("schedules changed through one instance wake the scheduler of another (PostgreSQL)", () => {
  let db: SqlDb;
  beforeAll(async () => {
    db = await migratedPg({ max: 4 });
    const at = new Date().toISOString();
    await db.run("INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, 'poke@example.com', 'x', $2)", [OWNER, at]);
    await db.run("INSERT INTO comparisons (id, owner_id, name, created_at, updated_at) VALUES ($1, $2, 'Watched', $3, $3)", [
      COMPARISON,
      OWNER,
      at,
    ]);
  }, PG_START_TIMEOUT);
  afterAll(async () => {
    await db?.close();
    await stopPostgres();
  });

  test("a save through the serve arms the scheduler for the schedule's slot at once, a removal lets it sleep a minute again, and the slot starts the run", async () => {
    const started: string[] = [];
    const base = { db, isRunning: () => false, allowPrivateTargets: false, publicUrl: "http://localhost", log: () => {} };
    const { clock, armed, skipTo } = recordingClock();
    const scheduling = watchService({ ...base, clock, startRun: (_owner, id) => void started.push(id) });
    const serve = watchService({ ...base, startRun: () => {} });

    await scheduling.scheduler.start();
    const unfollow = await scheduling.followScheduleChanges();
    // Nothing scheduled: it looks again in a minute.
    await waitFor("the first wake-up", () => armed(), 5_000, 20);
    expect(armed()!.at - clock.now()).toBeGreaterThan(55_000);

    const planned = async (what: string, at: () => number) =>
      waitFor(what, () => (Math.abs(armed()!.at - at()) < 1_000 ? armed() : null), 5_000, 20);
    const slot = Date.parse((await serve.schedules.put(OWNER, COMPARISON, "* * * * *", "UTC")).nextRunAt!);
    await planned("the scheduler to re-plan for the slot", () => slot);

    // Removed through the serve: it sleeps a whole minute again.
    await serve.schedules.remove(OWNER, COMPARISON);
    await planned("the scheduler to re-plan without it", () => clock.now() + 60_000);

    // Saved again: at its slot the wake-up starts the run.
    const again = Date.parse((await serve.schedules.put(OWNER, COMPARISON, "* * * * *", "UTC")).nextRunAt!);
    const wake = await planned("the scheduler to re-plan for the slot again", () => again);
    skipTo(again + 50);
    wake.fn();
    await waitFor("the run to start", () => started.length > 0, 5_000, 20);
    expect(started).toEqual([COMPARISON]);

    await unfollow();
    scheduling.scheduler.stop();
  }, 20_000);
});
