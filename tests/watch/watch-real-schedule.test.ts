// One real run that a one-minute schedule starts by itself: the app's Scheduler, armed on a real
// timer, wakes at the minute boundary and starts the run; the capture pool drives system Chromium
// against the fixture sites. The clock is real time shifted to just before the boundary, so the
// test waits a fraction of a second for the slot instead of up to a minute; under load the timer
// may fire late, which only makes the slot more due.
import { expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";
import { useRealRunTools } from "#tests/support/real-run-tools";
import { waitFor } from "#tests/support/wait";

const real = useRealRunTools("watch-real");

test("a one-minute schedule starts a real run by itself at the minute boundary", async () => {
  let offset = 0;
  const t = makeTestApp({
    env: { DATA_DIR: real.dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    now: () => Date.now() + offset,
    runTools: real.runTools(),
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Watched rivals" }, headers: h })).json;
  for (const [path, label] of [
    ["/alpha/", "Orbit"],
    ["/beta/", "Ember"],
  ])
    expect(
      (await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: real.fixtures.url(path!), label }, headers: h })).status,
    ).toBe(201);

  const schedule = (await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { body: { cron: "* * * * *", timezone: "UTC" }, headers: h }))
    .json;
  const slot = Date.parse(schedule.nextRunAt);
  expect(slot % 60_000).toBe(0);
  // 300 ms before the slot: the first pass finds nothing due and arms the timer for the boundary.
  offset = slot - 300 - Date.now();
  const boot = await t.services.watch.scheduler.start();
  try {
    // Normally empty; on a loaded machine the first pass may already be past the boundary.
    expect(boot.filter((e) => e.type !== "started")).toEqual([]);
    // The slot is 300 ms away; the bound only names a timer that never fired.
    const running = await waitFor(
      "the schedule to start the run",
      async () => {
        const x = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
        return x.startedAt !== null && x;
      },
      60_000,
      50,
    );
    expect(Date.parse(running.startedAt)).toBeGreaterThanOrEqual(slot);
    expect(running.schedule.nextRunAt).toBe(new Date(slot + 60_000).toISOString());
  } finally {
    t.services.watch.scheduler.stop();
  }
  await t.services.comparisons.whenIdle();

  const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
  expect(done).toMatchObject({ status: "completed", error: null, progress: { done: 4, total: 4 } });
  const snaps = (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json;
  expect(snaps).toHaveLength(4);
  expect(snaps[0].title).toBe("Orbit — Plan launches your whole team can follow");
  const diffs = (await t.call("GET", `/api/comparisons/${c.id}/diffs`, { headers: h })).json;
  expect(diffs.map((d: any) => d.viewport).sort()).toEqual(["desktop", "mobile"]);
  // Exactly one run: nobody pressed Start, and the next slot is a minute later.
  expect((await t.services.watch.schedules.repo.find(c.id, u.user.id))!.last_run_at).not.toBeNull();
}, 240_000); // past the slot wait (60 s), four pages one at a time under the pool's limits (60 s each), scoring
