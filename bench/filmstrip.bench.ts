// What the load filmstrip costs a capture: the same page loaded with and without the recorder,
// interleaved (so machine load hits both alike), timing what the capture waits for: navigation
// to load, plus the recorder's start and stop() on the critical path. saved() is awaited after
// the screenshot, so the wait it adds there is reported apart (normally 0: written meanwhile).
// Run: bun bench/filmstrip.bench.ts   (needs Chromium; serves fixture sites on 127.0.0.1)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";
import { recordFilmstrip } from "#server/modules/capture/filmstrip";
import { VIEWPORTS, type Viewport } from "#server/modules/capture/model";
import { startFixtureServer } from "#tests/support/fixture-server";

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
/** Extra time a capture may spend on the filmstrip, per page (median), before this bench fails. */
const BUDGET_MS = 150;
const sites = startFixtureServer();
const executablePath = findChromium(process.env.CHROMIUM_PATH);
if (!executablePath) throw new Error("no Chromium");
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
const out = mkdtempSync(join(tmpdir(), "film-bench-"));
const pages = ["alpha", "beta", "gamma"].flatMap((s) =>
  (["desktop", "mobile"] as Viewport[]).map((v) => ({ url: sites.url(`/${s}/`), viewport: v })),
);

async function once(p: (typeof pages)[number], record: boolean, n: number) {
  const vp = VIEWPORTS[p.viewport];
  const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, isMobile: vp.mobile, hasTouch: vp.mobile });
  const page = await ctx.newPage();
  const t0 = performance.now();
  const rec = record ? await recordFilmstrip(ctx, page, join(out, `${n}.png`)) : null;
  await page.goto(p.url, { waitUntil: "load" });
  await rec?.stop();
  const critical = performance.now() - t0;
  await page.screenshot({ fullPage: true });
  const t1 = performance.now();
  const manifest = await rec?.saved();
  const tail = performance.now() - t1;
  await ctx.close();
  return { critical, tail, frames: manifest?.frames.length ?? 0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const withRec: number[] = [];
const without: number[] = [];
const tails: number[] = [];
const frames: number[] = [];
let n = 0;
for (let r = 0; r < rounds; r++)
  for (const p of pages) {
    // Alternate which goes first, so warm caches favour neither.
    const order = (r + n) % 2 === 0 ? [true, false] : [false, true];
    for (const record of order) {
      const res = await once(p, record, n++);
      if (record) {
        withRec.push(res.critical);
        tails.push(res.tail);
        frames.push(res.frames);
      } else without.push(res.critical);
    }
  }
await browser.close();
await sites.close();
const du = Bun.spawnSync(["du", "-sk", out]).stdout.toString().split("\t")[0];
rmSync(out, { recursive: true, force: true });

const extra = median(withRec.map((w, i) => w - without[i]!));
console.log(`pages: 3 fixture sites x desktop+mobile; ${rounds} rounds, interleaved; medians`);
console.log(`load, no recorder        ${median(without).toFixed(0)} ms`);
console.log(`load, with recorder      ${median(withRec).toFixed(0)} ms`);
console.log(`extra per page (paired)  ${extra.toFixed(0)} ms   (budget ${BUDGET_MS} ms)`);
console.log(`wait at saved()          ${median(tails).toFixed(0)} ms`);
console.log(`frames per page          ${median(frames)} (max ${Math.max(...frames)}); ${du} KB on disk for ${frames.length} recordings`);
if (extra > BUDGET_MS) {
  console.log("TARGET MISSED: the filmstrip adds more than its budget to a capture");
  process.exitCode = 1;
} else console.log("target met: the filmstrip stays within its budget");
