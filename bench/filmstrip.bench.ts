// What the load filmstrip costs a capture, in two parts (BENCH_PART=cost|lcp, both by default):
// - cost: the same fixture page loaded with and without the recorder, interleaved (so machine load
//   hits both alike), timing what the capture waits for: navigation to load, plus the recorder's
//   start and stop() on the critical path. saved() is awaited after the screenshot, so the wait it
//   adds there is reported apart (normally 0: written meanwhile).
// - lcp: the LCP the page reports for the recorded load (the capture's first timing sample) on the
//   corpus pages (../shared/corpus), unrecorded against recorded from the trace (the recorder's way)
//   and from the screencast (its fallback, forced here by holding the browser's trace from another
//   page, as a second capture in the same browser would). Runs alternate their order each round;
//   the figures are medians, and the paired column is the median of (recorded - unrecorded) per round.
// Run: bun bench/filmstrip.bench.ts   (needs Chromium; serves fixture sites and the corpus on 127.0.0.1)
//      BENCH_ROUNDS=n (default 5 for cost, 15 for lcp), BENCH_PAGES=clean-blog,resume (corpus templates)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";
import { recordFilmstrip, type FilmstripRecorder } from "#server/modules/capture/filmstrip/filmstrip";
import { VIEWPORTS, type Viewport } from "#server/modules/capture/model";
import { startFixtureServer } from "#tests/support/fixture-server";
import { CORPUS_DIR, serveFolders, TEMPLATES } from "./corpus-lib";
import { loadNow, median } from "./lib";

const part = process.env.BENCH_PART ?? "both";
/** Extra time a capture may spend on the filmstrip, per page (median), before this bench fails. */
const BUDGET_MS = 150;
/** Extra LCP the recording may cause (median of the paired differences), as a share of the unrecorded LCP, before this bench fails. */
const LCP_BUDGET = 0.1;
const executablePath = findChromium(process.env.CHROMIUM_PATH);
if (!executablePath) throw new Error("no Chromium");
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
const out = mkdtempSync(join(tmpdir(), "film-bench-"));
let n = 0;
let missed = false;

async function costPart(rounds: number) {
  const sites = startFixtureServer();
  const pages = ["alpha", "beta", "gamma"].flatMap((s) =>
    (["desktop", "mobile"] as Viewport[]).map((v) => ({ url: sites.url(`/${s}/`), viewport: v })),
  );
  async function once(p: (typeof pages)[number], record: boolean) {
    const vp = VIEWPORTS[p.viewport];
    const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, isMobile: vp.mobile, hasTouch: vp.mobile });
    const page = await ctx.newPage();
    const t0 = performance.now();
    const rec = record ? await recordFilmstrip(ctx, page, join(out, `${n++}.png`)) : null;
    await page.goto(p.url, { waitUntil: "load" });
    return finishLoad(rec, page, ctx, t0);
  }
  const withRec: number[] = [];
  const without: number[] = [];
  const tails: number[] = [];
  const frames: number[] = [];
  const before = loadNow();
  for (let r = 0; r < rounds; r++)
    for (const [i, p] of pages.entries()) {
      // Alternate which goes first, so warm caches favour neither.
      const order = (r + i) % 2 === 0 ? [true, false] : [false, true];
      for (const record of order) {
        const res = await once(p, record);
        if (record) {
          withRec.push(res.critical);
          tails.push(res.tail);
          frames.push(res.frames);
        } else without.push(res.critical);
      }
    }
  await sites.close();
  const du = Bun.spawnSync(["du", "-sk", out]).stdout.toString().split("\t")[0];
  const extra = median(withRec.map((w, i) => w - without[i]!));
  console.log(`\ncost: 3 fixture sites x desktop+mobile; ${rounds} rounds, interleaved; medians; load average ${before} -> ${loadNow()}`);
  console.log(`load, no recorder        ${median(without).toFixed(0)} ms`);
  console.log(`load, with recorder      ${median(withRec).toFixed(0)} ms`);
  console.log(`extra per page (paired)  ${extra.toFixed(0)} ms   (budget ${BUDGET_MS} ms)`);
  console.log(`wait at saved()          ${median(tails).toFixed(0)} ms (max ${Math.max(...tails).toFixed(0)} ms)`);
  console.log(`frames per page          ${median(frames)} (max ${Math.max(...frames)}); ${du} KB on disk for ${frames.length} recordings`);
  if (extra > BUDGET_MS) {
    console.log("TARGET MISSED: the filmstrip adds more than its budget to a capture");
    missed = true;
  } else console.log("target met: the filmstrip stays within its budget");
}

type Mode = "none" | "trace" | "screencast";
const MODES: Mode[] = ["none", "trace", "screencast"];

/**
 * Ends a recorded load as the capture does: the recording stops (on the critical path, timed from
 * t0), then the full-page screenshot, then the wait for the written filmstrip (the tail).
 */
async function finishLoad(rec: FilmstripRecorder | null, page: Page, ctx: BrowserContext, t0: number) {
  await rec?.stop();
  const critical = performance.now() - t0;
  await page.screenshot({ fullPage: true });
  const t1 = performance.now();
  const manifest = await rec?.saved();
  const tail = performance.now() - t1;
  await ctx.close();
  return { critical, tail, frames: manifest?.frames.length ?? 0 };
}

/** Takes the browser's one trace from another page, so the recorder has to fall back to the screencast. */
async function holdTrace(b: Browser) {
  const ctx = await b.newContext();
  const session = await ctx.newCDPSession(await ctx.newPage());
  // A category nothing writes to: the trace only has to exist, not cost anything.
  await session.send("Tracing.start", { traceConfig: { includedCategories: ["film-bench-nothing"], excludedCategories: ["*"] } });
  return () => ctx.close();
}

async function lcpPart(rounds: number) {
  const templates = process.env.BENCH_PAGES
    ? TEMPLATES.filter((t) => process.env.BENCH_PAGES!.split(",").includes(t))
    : ["clean-blog", "resume"];
  const server = serveFolders(Object.fromEntries(templates.map((t) => [t, join(CORPUS_DIR, t)])));
  const vp = VIEWPORTS.desktop;
  async function once(url: string, mode: Mode) {
    const release = mode === "screencast" ? await holdTrace(browser) : null;
    const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    const t0 = performance.now();
    const rec = mode === "none" ? null : await recordFilmstrip(ctx, page, join(out, `${n++}.png`));
    await page.goto(url, { waitUntil: "load" });
    // The page's own LCP of this load, as the capture's first timing sample reads it.
    const lcp = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({
            type: "largest-contentful-paint",
            buffered: true,
          });
          setTimeout(() => resolve(Number.NaN), 3000);
        }),
    );
    const done = await finishLoad(rec, page, ctx, t0);
    await release?.();
    return { lcp, ...done };
  }
  let lcpMissed = false;
  const before = loadNow();
  const res = new Map<string, Record<Mode, { lcp: number; critical: number; tail: number; frames: number }[]>>();
  for (let r = 0; r < rounds; r++)
    for (const t of templates) {
      const runs = res.get(t) ?? { none: [], trace: [], screencast: [] };
      res.set(t, runs);
      // Rotate the order each round, so neither warm caches nor a burst of load favour one way.
      const order = MODES.map((_, i) => MODES[(i + r) % MODES.length]!);
      for (const mode of order) runs[mode].push(await once(server.url(t), mode));
    }
  server.stop();
  console.log(`\nlcp: corpus pages, desktop 1440x900; ${rounds} rounds, order rotated; medians; load average ${before} -> ${loadNow()}`);
  console.log("| page | recording | LCP | LCP - unrecorded (paired) | critical path | wait at saved() | frames |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [t, runs] of res)
    for (const mode of MODES) {
      const xs = runs[mode];
      const paired = median(xs.map((x, i) => x.lcp - runs.none[i]!.lcp));
      const col = (f: (x: (typeof xs)[number]) => number) => `${median(xs.map(f)).toFixed(0)} ms`;
      console.log(
        `| ${t} | ${mode} | ${col((x) => x.lcp)} | ${mode === "none" ? "-" : `${paired.toFixed(0)} ms`} | ${col((x) => x.critical)} | ${mode === "none" ? "-" : col((x) => x.tail)} | ${mode === "none" ? "-" : median(xs.map((x) => x.frames))} |`,
      );
      const budget = LCP_BUDGET * median(runs.none.map((x) => x.lcp));
      if (mode === "trace" && paired > budget) {
        console.log(`TARGET MISSED: recording ${t} delays its LCP by ${paired.toFixed(0)} ms (budget ${budget.toFixed(0)} ms)`);
        lcpMissed = true;
      }
    }
  if (!lcpMissed) console.log(`target met: the recording delays no page's LCP by more than ${LCP_BUDGET * 100} % of it`);
  missed ||= lcpMissed;
}

try {
  if (part !== "lcp") await costPart(Number(process.env.BENCH_ROUNDS ?? 5));
  if (part !== "cost") await lcpPart(Number(process.env.BENCH_ROUNDS ?? 15));
} finally {
  await browser.close();
  rmSync(out, { recursive: true, force: true });
}
if (missed) process.exitCode = 1;
