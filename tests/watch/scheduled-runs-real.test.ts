// Scheduled runs end to end, as the app wires them: the Scheduler (on an injected clock) starts
// runs through the comparisons service's `start`, whose captures go through the real capture pool
// (system Chromium) to fixture pages on 127.0.0.1; the runs are recorded with trigger "schedule".
// - slots missed while the server was down run once at boot, not once per slot;
// - a slot that comes due while the previous run is still capturing (a page the fixture holds
//   back) is skipped and logged, and the schedule moves on.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium } from "#server/lib/chromium";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { SKIP_STILL_RUNNING } from "#server/modules/watch/schedule/scheduler";
import { makeTestApp } from "#tests/support/app";
import { waitFor } from "#tests/support/wait";
import { TEST_TIMING_SAMPLES } from "#tests/support/server";

setDefaultTimeout(180_000);

const page = (name: string, colour: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
<style>body{margin:0;font-family:sans-serif}.hero{padding:96px 48px;background:${colour};color:#fff}a{display:inline-block;padding:12px 24px;background:#111827;color:#fff;border-radius:8px}</style></head>
<body><div class="hero"><h1>${name} plans for teams</h1><p>Everything your team needs.</p><a href="/signup">Start free</a></div>
<section style="padding:64px 48px"><h2>Features</h2><p>Fast, simple, reliable.</p></section></body></html>`;

/** While set, requests for /held wait for it: the run that captures it stays running. */
let hold: { promise: Promise<void>; release: () => void } | null = null;
let heldRequests = 0;
let server: ReturnType<typeof Bun.serve>;
let pool: CapturePool;
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "di-sched-real-"));
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      if (pathname === "/held") {
        heldRequests++;
        if (hold) await hold.promise;
        return new Response(page("Held", "#7c3aed"), { headers: { "content-type": "text/html; charset=utf-8" } });
      }
      if (pathname === "/steady")
        return new Response(page("Steady", "#0f766e"), { headers: { "content-type": "text/html; charset=utf-8" } });
      return new Response("not here", { status: 404 });
    },
  });
  pool = new CapturePool({
    concurrency: 2,
    chromiumPath: findChromium(process.env.CHROMIUM_PATH),
    allowPrivate: true,
    timingSamples: Number(TEST_TIMING_SAMPLES),
  });
});

afterAll(async () => {
  hold?.release();
  await pool?.close();
  server?.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
});

test("scheduled runs go through the capture queue, record trigger schedule, catch up once after downtime and never overlap", async () => {
  let now = Date.parse("2026-03-02T08:00:30.000Z");
  const t = makeTestApp({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" },
    now: () => now,
    runTools: { capture: (owner, job, onStage) => pool.submit(owner, job, onStage) },
  });
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = (await t.call("POST", "/api/comparisons", { body: { name: "Watched" }, headers: h })).json;
  const origin = `http://127.0.0.1:${server.port}`;
  for (const [path, label] of [
    ["/steady", "Steady"],
    ["/held", "Held"],
  ])
    expect((await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: origin + path, label }, headers: h })).status).toBe(
      201,
    );
  const put = await t.call("PUT", `/api/comparisons/${c.id}/schedule`, { body: { cron: "*/5 * * * *", timezone: "UTC" }, headers: h });
  expect(put.json.nextRunAt).toBe("2026-03-02T08:05:00.000Z");
  const runs = () => t.services.history.listRuns(u.user.id, c.id);
  const schedule = () => t.services.watch.schedules.repo.find(c.id, u.user.id);
  const logged = (part: string) => t.logs.lines.filter((l) => String(l.msg).includes(part));

  // Down from 08:00:30 to 08:27:10: the slots at :05, :10, :15, :20 and :25 passed unseen.
  now = Date.parse("2026-03-02T08:27:10.000Z");
  const boot = await t.services.watch.scheduler.start();
  t.services.watch.scheduler.stop(); // the rest of the test drives the passes itself
  expect(boot.map((e) => e.type)).toEqual(["started"]);
  expect(boot[0]).toMatchObject({
    comparisonId: c.id,
    slot: "2026-03-02T08:05:00.000Z",
    nextRunAt: "2026-03-02T08:30:00.000Z",
    missedSlots: 4,
  });
  expect(logged("4 missed slot(s) folded into this one")).toHaveLength(1);
  await t.services.comparisons.whenIdle();
  expect((await runs()).map((r) => [r.number, r.trigger, r.status])).toEqual([[1, "schedule", "completed"]]);
  // Through the capture pool: both sites at both viewports, real screenshots and extractions.
  const run1 = await t.services.history.getRun(u.user.id, c.id, (await runs())[0]!.id);
  expect(run1.snapshots.map((s) => [s.viewport, s.title]).sort()).toEqual([
    ["desktop", "Held"],
    ["desktop", "Steady"],
    ["mobile", "Held"],
    ["mobile", "Steady"],
  ]);
  // A pass at the same moment finds nothing due: the catch-up was one run.
  expect(await t.services.watch.scheduler.tick()).toEqual([]);

  // The 08:30 slot starts a run whose /held page the fixture keeps waiting.
  hold = (() => {
    let release!: () => void;
    const promise = new Promise<void>((r) => (release = r));
    return { promise, release };
  })();
  const seen = heldRequests;
  now = Date.parse("2026-03-02T08:30:00.000Z");
  expect((await t.services.watch.scheduler.tick()).map((e) => e.type)).toEqual(["started"]);
  await waitFor("the held page to be requested", () => heldRequests > seen, 60_000);
  expect((await runs())[0]).toMatchObject({ number: 2, trigger: "schedule", status: "running" });

  // 08:35 comes while run 2 is still capturing: skipped, logged, recorded, and the schedule moves on.
  now = Date.parse("2026-03-02T08:35:00.000Z");
  const skipped = await t.services.watch.scheduler.tick();
  expect(skipped).toEqual([
    expect.objectContaining({
      type: "skipped",
      comparisonId: c.id,
      slot: "2026-03-02T08:35:00.000Z",
      reason: SKIP_STILL_RUNNING,
      nextRunAt: "2026-03-02T08:40:00.000Z",
    }),
  ]);
  expect(
    logged(`schedule ${c.id} (slot 2026-03-02T08:35:00.000Z): skipped, ${SKIP_STILL_RUNNING}; next 2026-03-02T08:40:00.000Z`),
  ).toHaveLength(1);
  expect(await schedule()).toMatchObject({ last_skip_reason: SKIP_STILL_RUNNING, next_run_at: "2026-03-02T08:40:00.000Z" });

  hold.release();
  hold = null;
  await t.services.comparisons.whenIdle();
  // Two runs, both by the schedule; the skipped slot made none.
  expect((await runs()).map((r) => [r.number, r.trigger, r.status])).toEqual([
    [2, "schedule", "completed"],
    [1, "schedule", "completed"],
  ]);
  // The pages did not change between the runs: the second run found nothing.
  expect((await runs())[0]!.changeCount).toBe(0);
});
