// 200 watched comparisons due in the same minute, drained through the real path: the watch
// scheduler and its capture budget (src/modules/watch), the comparisons service's start (per-owner
// running limit, 429 → deferred 30 s), the run state machine, the run history (a `runs` row each),
// the analyse worker's scoring, the findings rules and the real CapturePool with its fair queue
// (200 pages waiting at most, 40 per owner), at the product's capture concurrency (2). The app's
// services are built as src/boot/serve.ts builds them, on a file database.
//
// Only the page capture is a stand-in (bench/stand-in-capture.worker.ts, handed to the pool as its
// worker): 200 comparisons × 2–3 sites × 2 viewports is ~1000 pages, and a real Chromium capture
// of even a tiny loopback page takes seconds of CPU here (measured below), so real browsers would
// make this an hour on 2 shared cores. The stand-in answers each page after a fixed
// BENCH_CAPTURE_MS (default 500 ms) with a real capture of the same fixture page made at the start
// (real Chromium through a real pool: PNG, extraction, thumbnail), so everything downstream of the
// browser does its real work. The capture-bound part of the drain scales with that time; the
// scheduler's 30 s deferrals do not.
//
// Clock: real time shifted by a fixed offset (the app's `now`, which the scheduler reads), so the
// due minute (09:00 UTC on a Thursday in January) arrives 2 s after the scheduler starts and every
// wait after it is a real one. Schedules mix zones and crons that all fall on that minute.
//
// 20 owners hold 200 comparisons, unevenly (30 down to 3). Prints the drain (due minute → last run
// finished), runs completed/skipped/failed, pages refused by the queue, the queue's peak, each
// owner's first start / first result / last result as a share of the drain, light vs heavy waits,
// and checks that no comparison ran twice. Exits 1 when a target is missed.
// Run: bun bench/watch-drain.bench.ts   (needs Chromium for the fixture captures; ~9 min here)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServices, type AppDeps } from "#server/app";
import { openStorage } from "#server/boot/storage";
import { sqliteConnectionOf } from "#server/db/sql";
import { loadEnv } from "#server/env";
import { findChromium } from "#server/lib/chromium";
import { newId, nowIso } from "#server/lib/ids";
import { createLogger } from "#server/lib/logger";
import { createAnalyser, createFindingsStep } from "#server/modules/analysis";
import type { Viewport } from "#server/modules/capture/model";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { createComparisonBody } from "#server/modules/comparisons/model";
import { LIMITS } from "#server/modules/comparisons/service";
import { startFixtureServer } from "#tests/support/fixture-server";
import { verdict } from "./lib";
import { standInKey, type StandInPage, type StandInSetup } from "./stand-in-capture.worker";

const CAPTURE_MS = Number(process.env.BENCH_CAPTURE_MS ?? 500);
/** Comparisons per owner: a few heavy watchers, a long tail of light ones (BENCH_OWNERS="4,2,1" for a quick try). */
const OWNERS = (process.env.BENCH_OWNERS ?? "30,25,20,15,12,10,10,9,8,8,7,7,6,6,6,5,5,4,4,3").split(",").map(Number);
const LIGHT = 5;
const SITES = ["alpha", "beta", "gamma"];
const VIEWPORTS: Viewport[] = ["desktop", "mobile"];
const DUE = Date.parse("2026-01-15T09:00:00.000Z");
/** All due at 09:00 UTC on Thursday 15 January 2026 (winter time everywhere). */
const CRONS: [string, string][] = [
  ["0 9 * * *", "UTC"],
  ["0 10 * * *", "Europe/Berlin"],
  ["0 4 * * *", "America/New_York"],
  ["0 9 * * 4", "UTC"],
  ["0 18 * * 1-5", "Asia/Tokyo"],
];
const GIVE_UP_MS = 30 * 60_000;
const TARGETS = { firstStartPct: 10, firstResultPct: 50 };

const work = mkdtempSync(join(tmpdir(), "di-drain-bench-"));
const fixtures = startFixtureServer();
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pct = (ms: number, of: number) => (100 * ms) / of;
const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)]! : NaN;
};
const quantile = (xs: number[], q: number) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length ? v[Math.min(v.length - 1, Math.floor(q * v.length))]! : NaN;
};

try {
  // ---- 1. the fixture pages, captured once in real Chromium ------------------------------------
  const chromiumPath = findChromium(process.env.CHROMIUM_PATH);
  if (!chromiumPath) throw new Error("No Chromium found (set CHROMIUM_PATH): the stand-in replays real captures");
  const real = new CapturePool({ concurrency: 2, chromiumPath, allowPrivate: true });
  const pages: Record<string, StandInPage> = {};
  const realMs: number[] = [];
  try {
    await Promise.all(
      SITES.flatMap((site) =>
        VIEWPORTS.map(async (viewport) => {
          const url = fixtures.url(`/${site}/`);
          let began = 0;
          const out = await real.submit(
            "fixtures",
            { url, viewport, screenshotPath: join(work, `${site}-${viewport}.png`) },
            (stage) => void (stage === "navigating" && (began = performance.now())),
          );
          if (!out.ok || !out.thumb)
            throw new Error(`fixture capture of ${site} (${viewport}) failed: ${out.ok ? "no thumbnail" : out.reason}`);
          realMs.push(performance.now() - began);
          pages[standInKey(url, viewport)] = { png: out.screenshotPath, extraction: out.extraction, thumb: out.thumb };
        }),
      ),
    );
  } finally {
    await real.close();
  }
  console.log(
    `real Chromium capture of the fixture pages here: median ${s(median(realMs))} (${realMs.length} pages, 2 at a time); the stand-in takes ${CAPTURE_MS} ms`,
  );

  // ---- 2. the app's services on a file database, the pool on the stand-in ----------------------
  const dataDir = join(work, "data");
  const env = loadEnv({ ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1", PORT: "3999" });
  const { db, secret } = await openStorage(dataDir, {});
  // The bench reads its figures through the embedded file's own connection, synchronously.
  const conn = sqliteConnectionOf(db)!;
  let offset = DUE - 10 * 60_000 - Date.now();
  const now = () => Date.now() + offset;
  const logLines: string[] = [];
  const log = (msg: string, err?: unknown) => void logLines.push(err ? `${msg} ${String(err)}` : msg);
  const setup: StandInSetup = { type: "stand-in", captureMs: CAPTURE_MS, pages };
  const pool = new CapturePool({
    concurrency: env.CAPTURE_CONCURRENCY,
    chromiumPath,
    allowPrivate: true,
    spawn: () => {
      const w = new Worker(new URL("./stand-in-capture.worker.ts", import.meta.url));
      w.postMessage(setup); // before the pool's init: messages arrive in order
      return w;
    },
  });
  const analyser = createAnalyser();
  interface Page {
    owner: string;
    submitted: number;
    started: number | null;
    done: number | null;
    reason: string | null;
  }
  const captured: Page[] = [];
  let queuePeak = 0;
  const sampleQueue = () => void (queuePeak = Math.max(queuePeak, pool.stats().queued));
  const deps: AppDeps = {
    db,
    env: { ...env, DATA_DIR: dataDir },
    secret,
    now,
    log,
    logger: createLogger({ level: "warn", stream: { write() {} } }),
    runTools: {
      capture: async (owner, job, onStage) => {
        const p: Page = { owner, submitted: now(), started: null, done: null, reason: null };
        captured.push(p);
        const out = await pool.submit(owner, job, (stage) => {
          if (stage === "navigating") p.started ??= now();
          sampleQueue();
          onStage?.(stage);
        });
        p.done = now();
        if (!out.ok) p.reason = out.reason;
        return out;
      },
      analyser,
      findingsFor: createFindingsStep({ log }),
    },
  };
  const services = createServices(deps);

  // ---- 3. 20 owners, 200 comparisons, each watched on a schedule due at 09:00 UTC ---------------
  const ownerOf = new Map<string, number>();
  const owners = OWNERS.map((n, i) => {
    const id = newId();
    conn.query("INSERT INTO users (id, email, password_hash) VALUES (?, ?, 'x')").run(id, `owner${i + 1}@bench.test`);
    return { id, n, index: i };
  });
  let pagesTotal = 0;
  for (const o of owners) {
    ownerOf.set(o.id, o.index);
    for (let k = 0; k < o.n; k++) {
      const c = await services.comparisons.create(o.id, createComparisonBody.parse({ name: `Rivals ${o.index + 1}.${k + 1}` }));
      const count = 2 + ((o.index + k) % 2);
      for (let t = 0; t < count; t++) {
        const site = SITES[(k + t) % SITES.length]!;
        await services.comparisons.addTarget(o.id, c.id, { url: fixtures.url(`/${site}/`), label: site });
      }
      pagesTotal += count * VIEWPORTS.length;
      const [cron, zone] = CRONS[(o.index + k) % CRONS.length]!;
      const view = await services.watch.schedules.put(o.id, c.id, cron, zone);
      if (view.nextRunAt !== nowIso(DUE)) throw new Error(`${cron} (${zone}) is next due at ${view.nextRunAt}, not at ${nowIso(DUE)}`);
    }
  }
  const comparisons = OWNERS.reduce((a, b) => a + b, 0);
  console.log(
    `${comparisons} comparisons of ${owners.length} owners (${OWNERS.join(", ")}), ${pagesTotal} pages, all due at ${nowIso(DUE)}`,
  );

  // ---- 4. the due minute arrives; wait until every slot is settled and every run has ended --------
  offset = DUE - 2_000 - Date.now();
  const sampler = setInterval(sampleQueue, 10);
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await services.watch.scheduler.start();
  const count = (sql: string, ...args: string[]) => conn.query<{ n: number }, string[]>(sql).get(...args)!.n;
  const slotsOpen = () => count("SELECT COUNT(*) AS n FROM comparison_schedules WHERE next_run_at < ?", nowIso(DUE + 3_600_000));
  const running = () => count("SELECT COUNT(*) AS n FROM comparisons WHERE status = 'running'");
  while (slotsOpen() > 0 || running() > 0) {
    if (performance.now() - wall0 > GIVE_UP_MS) throw new Error(`not drained after ${s(GIVE_UP_MS)}`);
    await Bun.sleep(200);
  }
  await services.comparisons.whenIdle();
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  services.watch.scheduler.stop();

  // ---- 5. figures ----------------------------------------------------------------------------
  interface Run {
    id: string;
    comparison_id: string;
    owner_id: string;
    status: string;
    trigger: string;
    started_at: string;
    finished_at: string | null;
  }
  const runs = conn
    .query<Run, []>("SELECT id, comparison_id, owner_id, status, trigger, started_at, finished_at FROM runs ORDER BY started_at")
    .all();
  const at = (iso: string | null) => (iso === null ? NaN : Date.parse(iso) - DUE);
  const drain = Math.max(...runs.map((r) => at(r.finished_at)));
  const events = logLines.filter((l) => l.startsWith("schedule "));
  const startedEvents = events.filter((l) => l.includes(": run started"));
  const skipped = events.filter((l) => l.includes(": skipped"));
  const deferred = events.filter((l) => l.includes(": deferred"));
  const deferReasons = new Map<string, number>();
  for (const l of deferred) {
    const why = /deferred: (.*?)(?:; retry at|$)/.exec(l)?.[1]?.replace(/\d+/g, "N") ?? "?";
    deferReasons.set(why, (deferReasons.get(why) ?? 0) + 1);
  }
  const byStatus = (st: string) => runs.filter((r) => r.status === st).length;
  const refused = captured.filter((p) => p.reason !== null);
  const waits = captured.filter((p) => p.started !== null).map((p) => p.started! - p.submitted);

  console.log(`\ndrain: due minute → last run finished ${s(drain)} (wall ${s(wallMs)}, CPU ${s((cpu.user + cpu.system) / 1000)})`);
  console.log(
    `runs: ${byStatus("completed")} completed, ${byStatus("failed")} failed, ${byStatus("interrupted")} interrupted, ${skipped.length} slots skipped; ` +
      `${runs.filter((r) => r.trigger === "schedule").length} by the schedule`,
  );
  console.log(
    `scheduler: ${startedEvents.length} starts, ${deferred.length} deferrals (${[...deferReasons].map(([w, n]) => `${n}× ${w}`).join("; ")})`,
  );
  console.log(
    `pages: ${captured.length} submitted, ${refused.length} refused or failed${refused.length ? ` (${[...new Set(refused.map((p) => p.reason))].join("; ")})` : ""}; ` +
      `queue peak ${queuePeak} waiting (limit 200, 40 per owner); wait for a capture slot median ${s(median(waits))}, p95 ${s(quantile(waits, 0.95))}, max ${s(Math.max(...waits))}`,
  );

  // How busy the capture slots were: idle slots while runs wait mean the drain is not capture-bound.
  const slots = env.CAPTURE_CONCURRENCY;
  const spans = captured.filter((p) => p.started !== null && p.done !== null).map((p) => [p.started! - DUE, p.done! - DUE] as const);
  const busyIn = (from: number, to: number) => spans.reduce((n, [a, b]) => n + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);
  const minutes = Array.from({ length: Math.ceil(drain / 60_000) }, (_, m) => {
    const to = Math.min(drain, (m + 1) * 60_000);
    return `${pct(busyIn(m * 60_000, to), slots * (to - m * 60_000)).toFixed(0)}%`;
  });
  console.log(
    `capture slots busy ${pct(busyIn(0, drain), slots * drain).toFixed(0)}% of the drain (by minute: ${minutes.join(" ")}); ` +
      `the pages alone need ${s((captured.length * CAPTURE_MS) / slots)} (${captured.length} × ${CAPTURE_MS} ms over ${slots} slots)`,
  );

  // No comparison twice, no overlap, never more than the per-owner running limit at once.
  const runsOf = new Map<string, Run[]>();
  for (const r of runs) runsOf.set(r.comparison_id, [...(runsOf.get(r.comparison_id) ?? []), r]);
  const startsOf = new Map<string, number>();
  for (const l of startedEvents) {
    const id = /^schedule (\S+)/.exec(l)![1]!;
    startsOf.set(id, (startsOf.get(id) ?? 0) + 1);
  }
  const twice = [...runsOf.values()].filter((rs) => rs.length > 1).length + [...startsOf.values()].filter((n) => n > 1).length;
  let ownerConcurrency = 0;
  for (const o of owners) {
    const edges = runs
      .filter((r) => r.owner_id === o.id)
      .flatMap((r) => [
        [at(r.started_at), 1],
        [at(r.finished_at), -1],
      ])
      .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    let live = 0;
    for (const [, d] of edges) ownerConcurrency = Math.max(ownerConcurrency, (live += d!));
  }
  console.log(
    `comparisons with a run: ${runsOf.size} of ${comparisons}; ran or started twice: ${twice}; most runs of one owner at once: ${ownerConcurrency} (limit ${LIMITS.runningPerUser})`,
  );

  // Per owner: when its first run started, its first result, its last result (share of the drain).
  console.log("\nowner  comparisons  first start    first result   last result    page wait max");
  const rows = owners.map((o) => {
    const mine = runs.filter((r) => r.owner_id === o.id);
    const firstStart = Math.min(...mine.map((r) => at(r.started_at)));
    const firstResult = Math.min(...mine.map((r) => at(r.finished_at)));
    const lastResult = Math.max(...mine.map((r) => at(r.finished_at)));
    const lastStart = Math.max(...mine.map((r) => at(r.started_at)));
    const pageWait = Math.max(...captured.filter((p) => p.owner === o.id && p.started !== null).map((p) => p.started! - p.submitted));
    const cell = (ms: number) => `${s(ms).padStart(7)} ${`${pct(ms, drain).toFixed(0)}%`.padStart(4)}`;
    console.log(
      `${String(o.index + 1).padStart(5)}  ${String(o.n).padStart(11)}  ${cell(firstStart)}   ${cell(firstResult)}   ${cell(lastResult)}   ${s(pageWait).padStart(8)}`,
    );
    return { ...o, firstStart, firstResult, lastResult, lastStart, pageWait };
  });
  const light = rows.filter((r) => r.n <= LIGHT);
  const heavy = rows[0]!;
  const lightLastStart = Math.max(...light.map((r) => r.lastStart));
  const lightLastResult = Math.max(...light.map((r) => r.lastResult));
  console.log(
    `\nlight owners (≤ ${LIGHT} comparisons, ${light.length} of them): every run started by ${s(lightLastStart)} (${pct(lightLastStart, drain).toFixed(0)}%), ` +
      `all results by ${s(lightLastResult)} (${pct(lightLastResult, drain).toFixed(0)}%), longest page wait ${s(Math.max(...light.map((r) => r.pageWait)))}`,
  );
  console.log(
    `heaviest owner (${heavy.n} comparisons): last run started at ${s(heavy.lastStart)} (${pct(heavy.lastStart, drain).toFixed(0)}%), ` +
      `last result ${s(heavy.lastResult)} (${pct(heavy.lastResult, drain).toFixed(0)}%), longest page wait ${s(heavy.pageWait)}`,
  );
  const others = logLines.filter((l) => !l.startsWith("schedule "));
  if (others.length) console.log(`other log lines (${others.length}):\n  ${others.slice(0, 10).join("\n  ")}`);

  console.log("");
  verdict("runs completed", byStatus("completed"), { atLeast: comparisons });
  verdict("runs failed, interrupted or skipped", byStatus("failed") + byStatus("interrupted") + skipped.length, { atMost: 0 });
  verdict("pages refused or failed", refused.length, { atMost: 0 });
  verdict("comparisons that ran or started twice", twice, { atMost: 0 });
  verdict("most runs of one owner at once", ownerConcurrency, { atMost: LIMITS.runningPerUser });
  verdict("latest first start of an owner, % of the drain", Math.max(...rows.map((r) => pct(r.firstStart, drain))), {
    atMost: TARGETS.firstStartPct,
  });
  verdict("latest first result of an owner, % of the drain", Math.max(...rows.map((r) => pct(r.firstResult, drain))), {
    atMost: TARGETS.firstResultPct,
  });

  await pool.close();
  analyser.close();
  db.close();
} finally {
  await fixtures.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(process.exitCode ?? 0);
