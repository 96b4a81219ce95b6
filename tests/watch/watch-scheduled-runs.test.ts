// Scheduled runs as the app wires them: the capture-queue budget defers runs that would not fit
// (so 200 comparisons due in one minute drain over a few passes, owners interleaved, none lost),
// the owner's running limit defers rather than skips, an overlapping slot is skipped and logged.
import { describe, expect, test } from "bun:test";
import { openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { HttpError } from "#server/http/errors";
import { newId } from "#server/lib/ids";
import type { ScheduleEvent } from "#server/modules/watch/schedule/scheduler";
import { DEFER_RETRY_MS, watchService } from "#server/modules/watch/service";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "#tests/support/app";
import { fakeRunTools } from "#tests/api/comparisons-support";

const T0 = Date.parse("2026-03-02T08:00:30.000Z");
const SLOT = Date.parse("2026-03-02T08:01:00.000Z");

function world(opts: { budget?: { total: number; perOwner: number }; start?: (ownerId: string, id: string) => void } = {}) {
  const db: Db = openDatabase(":memory:");
  migrate(db);
  let now = T0;
  const logs: string[] = [];
  const started: { ownerId: string; id: string }[] = [];
  const watch = watchService({
    db: sqliteSql(db),
    startRun: (ownerId, id, trigger) => {
      expect(trigger).toBe("schedule");
      opts.start?.(ownerId, id);
      started.push({ ownerId, id });
      // As the comparisons service does: the comparison runs, its pages waiting for capture.
      db.query("UPDATE comparisons SET status = 'running', progress_total = 4, progress_done = 0 WHERE id = ?").run(id);
    },
    isRunning: () => false,
    allowPrivateTargets: true,
    publicUrl: "http://localhost:3000",
    now: () => now,
    clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => {} },
    budget: opts.budget,
    log: (m) => logs.push(m),
  });
  const owner = () => {
    const id = newId();
    db.query("INSERT INTO users (id, email, password_hash) VALUES (?, ?, 'x')").run(id, `${id}@example.test`);
    return id;
  };
  const comparison = async (ownerId: string, targets = 2, cron = "* * * * *") => {
    const id = newId();
    db.query("INSERT INTO comparisons (id, owner_id, name, created_at, updated_at) VALUES (?, ?, 'c', 't', 't')").run(id, ownerId);
    for (let i = 0; i < targets; i++)
      db.query("INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES (?, ?, ?, 'l', ?, 't')").run(
        newId(),
        id,
        ownerId,
        `http://127.0.0.1:9/${id}/${i}`,
      );
    await watch.schedules.put(ownerId, id, cron, "UTC");
    return id;
  };
  const finish = (id: string) =>
    db.query("UPDATE comparisons SET status = 'completed', progress_done = progress_total WHERE id = ?").run(id);
  return { db, watch, logs, started, owner, comparison, finish, at: (ms: number) => (now = ms) };
}

describe("scheduled runs through the capture budget", () => {
  test("200 comparisons due in the same minute drain fairly over passes: deferred, never skipped or lost", async () => {
    const w = world();
    const heavy = w.owner();
    const light = Array.from({ length: 10 }, () => w.owner());
    // Hourly, so every retry within the hour is the same slot.
    const hourly = (o: string) => w.comparison(o, 2, "0 * * * *");
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) ids.push(await hourly(heavy));
    for (const o of light) for (let i = 0; i < 5; i++) ids.push(await hourly(o));
    expect(ids).toHaveLength(200);
    const HOUR = Date.parse("2026-03-02T09:00:00.000Z");

    w.at(HOUR);
    const first = await w.watch.scheduler.tick();
    // 4 pages a run: 50 runs fill the 200-page queue, handed out round-robin, so the owner with
    // 150 due comparisons gets no more than anyone else (within one run).
    const startedFirst = first.filter((e) => e.type === "started");
    expect(startedFirst).toHaveLength(50);
    const perOwner = [heavy, ...light].map((o) => startedFirst.filter((e) => e.ownerId === o).length);
    expect(Math.max(...perOwner) - Math.min(...perOwner)).toBeLessThanOrEqual(1);
    expect(Math.min(...perOwner)).toBeGreaterThanOrEqual(4);
    const deferred = first.filter((e): e is Extract<ScheduleEvent, { type: "deferred" }> => e.type === "deferred");
    expect(deferred).toHaveLength(150);
    expect(new Set(deferred.map((e) => e.nextRunAt))).toEqual(new Set([new Date(HOUR + DEFER_RETRY_MS).toISOString()]));
    expect(first.some((e) => e.type === "skipped")).toBe(false);
    expect(w.logs.filter((l) => l.includes("deferred"))).toHaveLength(150);

    // Runs finish and the retries start the rest, a queue-full at a time, until every one ran once.
    let t = HOUR;
    let passes = 1;
    for (; passes < 20 && w.started.length < 200; passes++) {
      for (const s of w.started) w.finish(s.id);
      t += DEFER_RETRY_MS;
      w.at(t);
      const events = await w.watch.scheduler.tick();
      expect(events.some((e) => e.type === "skipped")).toBe(false);
      if (passes === 1)
        expect(events.filter((e) => e.type === "started" && e.ownerId !== heavy)).toHaveLength(50 - (startedFirst.length - perOwner[0]!));
    }
    expect(w.started).toHaveLength(200);
    expect(new Set(w.started.map((s) => s.id)).size).toBe(200);
    // The light owners were all served by the second pass; the heavy owner's 150 then go 10 at a
    // time (its 40 queued pages), one pass per retry: 5 + 15 x 10 = 155 > 150 → 16 passes.
    expect(passes).toBe(16);
    expect(w.db.query("SELECT COUNT(*) AS n FROM comparison_schedules WHERE next_run_at = '2026-03-02T10:00:00.000Z'").get()).toEqual({
      n: 200,
    });
  });

  test("the owner's running limit (429) defers the slot; an overlapping slot is skipped and logged", async () => {
    const w = world({
      start: () => {
        if (w.started.length >= 2) throw new HttpError(429, "You already have 2 analyses running. Wait for one to finish.");
      },
    });
    const o = w.owner();
    const [a, b, c] = [await w.comparison(o), await w.comparison(o), await w.comparison(o)];
    w.at(SLOT);
    const events = await w.watch.scheduler.tick();
    expect(events.map((e) => [e.comparisonId, e.type])).toEqual([
      [a, "started"],
      [b, "started"],
      [c, "deferred"],
    ]);
    expect(w.logs.find((l) => l.includes(c))).toContain("deferred: You already have 2 analyses running");

    // A minute later a and b are still running: their slots are skipped, with the reason in the log and on the row.
    w.at(SLOT + 60_000);
    const next = await w.watch.scheduler.tick();
    expect(
      next
        .filter((e) => e.type === "skipped")
        .map((e) => e.comparisonId)
        .sort(),
    ).toEqual([a, b].sort());
    expect(w.logs.filter((l) => l.includes("skipped, the previous run was still in progress"))).toHaveLength(2);
    expect((await w.watch.schedules.repo.find(a!, o))!.last_skip_reason).toBe("the previous run was still in progress");
  });

  test("a run that ends brings its owner's deferred slots forward: they start at once, not at their retry", async () => {
    const running = (ownerId: string) =>
      w.db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM comparisons WHERE owner_id = ? AND status = 'running'").get(ownerId)!
        .n;
    const w = world({
      start: (ownerId) => {
        if (running(ownerId) >= 2) throw new HttpError(429, "You already have 2 analyses running. Wait for one to finish.");
      },
    });
    const [o, other] = [w.owner(), w.owner()];
    const [a, b, c] = [await w.comparison(o), await w.comparison(o), await w.comparison(o)];
    const [d, e, f] = [await w.comparison(other), await w.comparison(other), await w.comparison(other)];
    w.at(SLOT);
    const first = await w.watch.scheduler.tick();
    expect(first.filter((x) => x.type === "deferred").map((x) => x.comparisonId)).toEqual([c, f]);
    const nextRunAt = (id: string) =>
      w.db.query<{ next_run_at: string }, [string]>("SELECT next_run_at FROM comparison_schedules WHERE comparison_id = ?").get(id)!
        .next_run_at;
    expect(nextRunAt(c)).toBe(new Date(SLOT + DEFER_RETRY_MS).toISOString());

    // a ends; the clock does not move: c is due now, while the other owner's f keeps its retry time.
    w.finish(a);
    await w.watch.runEnded(o);
    expect(nextRunAt(c)).toBe(new Date(SLOT).toISOString());
    expect(nextRunAt(f)).toBe(new Date(SLOT + DEFER_RETRY_MS).toISOString());
    const after = await w.watch.scheduler.tick();
    expect(after.map((x) => [x.comparisonId, x.type])).toEqual([[c, "started"]]);
    expect(w.started.map((s) => s.id)).toEqual([a, d, b, e, c]);

    // A slot that ran since its last deferral is not pulled forward again.
    w.finish(b);
    await w.watch.runEnded(o);
    expect(nextRunAt(c)).toBe(new Date(SLOT + 60_000).toISOString());
  });

  test("a start refused for good (fewer than two websites) skips the slot with the reason", async () => {
    const w = world({
      start: () => {
        throw new HttpError(400, "At least 2 websites are required to run a comparison");
      },
    });
    const id = await w.comparison(w.owner(), 1);
    w.at(SLOT);
    const [e] = await w.watch.scheduler.tick();
    expect(e).toMatchObject({
      type: "skipped",
      comparisonId: id,
      reason: "the run could not start: At least 2 websites are required to run a comparison",
    });
    expect(e!.nextRunAt).toBe(new Date(SLOT + 60_000).toISOString());
  });
});

describe("through the app", () => {
  test("a due schedule starts a run of the comparison with fake run tools; deleting the comparison removes its schedule", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "di-watch-sched-"));
    try {
      let now = T0;
      const t = makeTestApp({
        env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" },
        runTools: fakeRunTools().tools,
        now: () => now,
      });
      const u = await t.signup();
      const h = t.auth(u.token);
      const c = (await t.call("POST", "/api/comparisons", { body: { name: "Watched" }, headers: h })).json;
      for (const p of ["a", "b"])
        await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: `http://127.0.0.1:9/${p}`, label: p }, headers: h });
      const put = await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { body: { cron: "* * * * *", timezone: "UTC" }, headers: h });
      expect(put.json.nextRunAt).toBe(new Date(SLOT).toISOString());

      now = SLOT;
      const events = await t.services.watch.scheduler.tick();
      expect(events.map((e) => e.type)).toEqual(["started"]);
      await t.services.comparisons.whenIdle();
      const after = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
      expect(after.status).toBe("completed");
      expect(after.schedule.nextRunAt).toBe(new Date(SLOT + 60_000).toISOString());

      expect((await t.call("DELETE", `/api/comparisons/${c.id}`, { headers: h })).status).toBe(200);
      expect(await t.services.watch.schedules.repo.count()).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
