// What handling consent banners costs a capture: the same fixture page captured whole
// (capturePage, one browser) without consent handling and with it (reject, keep), interleaved and
// in turn first, so machine load hits each alike. The pages: the OneTrust- and Cookiebot-style
// banners (answered under reject), the home-made one no rule knows (looked for, masked), and a
// page with no banner (what every other page pays). Figures are medians of the paired differences
// per page (with - without), beside the medians and their ratio, for two spans: the capture's
// start to its first look at the page (open, settle and the consent phase: where consent handling
// adds its time, with less of the rest's noise) and the whole capture (a second look the consent
// phase caused would show there; the looks column counts them).
// Target: at most 300 ms a page before the first look (issue 33).
// Run: bun bench/consent.bench.ts   (needs Chromium; BENCH_ROUNDS=n, default 5; BENCH_VIEWPORT=mobile)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";
import { capturePage } from "#server/modules/capture/capture";
import type { ConsentPolicy, Viewport } from "#server/modules/capture/model";
import { testCaptureJob } from "#tests/support/capture-job";
import { startFixtureServer } from "#tests/support/fixture-server";
import { loadNow, median, verdict } from "./lib";

const BUDGET_MS = 300;
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const viewport = (process.env.BENCH_VIEWPORT ?? "desktop") as Viewport;
const executablePath = findChromium(process.env.CHROMIUM_PATH);
if (!executablePath) throw new Error("no Chromium");
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
const sites = startFixtureServer();
const out = mkdtempSync(join(tmpdir(), "consent-bench-"));

const PAGES = ["consent-onetrust", "consent-cookiebot", "consent-homemade", "alpha"];
const MODES: (ConsentPolicy | "none")[] = ["none", "reject", "keep"];

interface Once {
  /** The whole capture. */
  ms: number;
  /** From its start to its first look at the page (open, settle and the consent phase: what consent handling adds to). */
  toLook: number;
  looks: number;
  record: string;
}

async function once(site: string, mode: ConsentPolicy | "none"): Promise<Once> {
  const job = testCaptureJob(sites.url(`/${site}/`), out, { viewport, ...(mode === "none" ? {} : { consent: mode }) });
  const t0 = performance.now();
  let toLook = 0;
  let looks = 0;
  const { extraction } = await capturePage(browser, job, (stage) => {
    if (stage !== "measuring") return;
    if (looks++ === 0) toLook = performance.now() - t0;
  });
  const ms = performance.now() - t0;
  rmSync(job.screenshotPath, { force: true });
  const c = extraction.consent;
  return { ms, toLook, looks, record: !c ? "-" : c.found ? `${c.action} (${c.cmp ?? "no rule"})` : "none found" };
}

console.log(`consent bench: ${rounds} rounds, ${viewport}, load ${loadNow()}`);
// One capture of each first: the consent rules are read and the page script built once per process.
for (const site of PAGES) await once(site, "reject");

const runs: Record<string, Record<string, Once[]>> = {};
for (let r = 0; r < rounds; r++) {
  for (const site of PAGES) {
    // Each mode leads in turn.
    const order = MODES.map((_, i) => MODES[(i + r) % MODES.length]!);
    for (const mode of order) ((runs[site] ??= {})[mode] ??= []).push(await once(site, mode));
  }
}

const ms = (v: number) => `${v >= 0 ? "" : "-"}${Math.abs(v).toFixed(0)} ms`;
const delta = (v: number) => `${v >= 0 ? "+" : "-"}${Math.abs(v).toFixed(0)} ms`;
/** Median of the paired differences (with - without, round by round) of one figure. */
const paired = (a: Once[], b: Once[], pick: (o: Once) => number) => median(a.map((o, i) => pick(o) - pick(b[i]!)));
let worst = 0;
const rows: string[][] = [
  [
    "page",
    "to look: none",
    "reject",
    "Δ",
    "keep",
    "Δ",
    "capture: none",
    "reject",
    "Δ",
    "ratio",
    "keep",
    "Δ",
    "ratio",
    "looks",
    "reject records",
  ],
];
for (const site of PAGES) {
  const t = runs[site]!;
  const none = t.none!;
  const cells = [site, ms(median(none.map((o) => o.toLook)))];
  for (const mode of ["reject", "keep"] as const) {
    const d = paired(t[mode]!, none, (o) => o.toLook);
    worst = Math.max(worst, d);
    cells.push(ms(median(t[mode]!.map((o) => o.toLook))), delta(d));
  }
  const base = median(none.map((o) => o.ms));
  cells.push(ms(base));
  for (const mode of ["reject", "keep"] as const) {
    const m = median(t[mode]!.map((o) => o.ms));
    cells.push(ms(m), delta(paired(t[mode]!, none, (o) => o.ms)), (m / base).toFixed(2));
  }
  cells.push(MODES.map((m) => t[m]!.reduce((n, o) => n + o.looks, 0)).join("/"), t.reject!.at(-1)!.record);
  rows.push(cells);
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join("  "));
console.log(`looks: how many times the capture measured the page over the rounds (none/reject/keep); load after: ${loadNow()}`);
verdict("consent handling, worst page's median extra ms before the first look", worst, { atMost: BUDGET_MS });

await browser.close();
await sites.close();
rmSync(out, { recursive: true, force: true });
