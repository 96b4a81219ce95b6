// What handling consent banners costs a capture: the same fixture page captured whole
// (capturePage, one browser) without consent handling and with it (reject, keep), interleaved and
// in turn first, so machine load hits each alike. The pages: the OneTrust- and Cookiebot-style
// banners (answered under reject), the home-made one no rule knows (looked for, masked), and a
// page with no banner (what every other page pays). Figures are medians of the paired differences
// per page (with - without), beside the medians and their ratio.
// Target: at most 300 ms a page (issue 33).
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

async function once(site: string, mode: ConsentPolicy | "none"): Promise<{ ms: number; record: string }> {
  const job = testCaptureJob(sites.url(`/${site}/`), out, { viewport, ...(mode === "none" ? {} : { consent: mode }) });
  const t0 = performance.now();
  const { extraction } = await capturePage(browser, job, () => {});
  const ms = performance.now() - t0;
  rmSync(job.screenshotPath, { force: true });
  const c = extraction.consent;
  return { ms, record: !c ? "-" : c.found ? `${c.action} (${c.cmp ?? "no rule"})` : "none found" };
}

console.log(`consent bench: ${rounds} rounds, ${viewport}, load ${loadNow()}`);
// One capture of each first: the consent rules are read and the page script built once per process.
for (const site of PAGES) await once(site, "reject");

const times: Record<string, Record<string, number[]>> = {};
const records: Record<string, Record<string, string>> = {};
for (let r = 0; r < rounds; r++) {
  for (const site of PAGES) {
    // Each mode leads in turn.
    const order = MODES.map((_, i) => MODES[(i + r) % MODES.length]!);
    for (const mode of order) {
      const { ms, record } = await once(site, mode);
      ((times[site] ??= {})[mode] ??= []).push(ms);
      (records[site] ??= {})[mode] = record;
    }
  }
}

let worst = 0;
const rows: string[][] = [["page", "without", "reject", "Δ reject", "ratio", "keep", "Δ keep", "ratio", "reject records"]];
for (const site of PAGES) {
  const t = times[site]!;
  const base = median(t.none!);
  const cells = [site, `${base.toFixed(0)} ms`];
  for (const mode of ["reject", "keep"] as const) {
    const delta = median(t[mode]!.map((v, i) => v - t.none![i]!));
    worst = Math.max(worst, delta);
    cells.push(`${median(t[mode]!).toFixed(0)} ms`, `${delta >= 0 ? "+" : ""}${delta.toFixed(0)} ms`, (median(t[mode]!) / base).toFixed(2));
  }
  cells.push(records[site]!.reject!);
  rows.push(cells);
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join("  "));
console.log(`load after: ${loadNow()}`);
verdict("consent handling, worst page's median extra ms", worst, { atMost: BUDGET_MS });

await browser.close();
await sites.close();
rmSync(out, { recursive: true, force: true });
