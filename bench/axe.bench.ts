// What axe-core adds to a capture (decision 0015). Two parts:
//   capture  each page's desktop capture with the audit and without it (CaptureDeps.skipAudit),
//            alternately, in one browser, one capture at a time: the time a capture takes longer,
//            which is what a run waits for (the audit runs while the server reads the pixels)
//   alone    where axe's own time goes, in a fresh page per round: sending and evaluating its
//            source into the page, then its audit (the first run in a page, as the capture's is)
// A page is audited once, on its desktop capture; mobile captures do not run axe.
// Pages: the fixture sites (alpha, beta) and the corpus templates clean-blog and stylish-portfolio.
// Run: bun bench/axe.bench.ts   (BENCH_ROUNDS=5 by default; CORPUS_DIR overrides ../shared/corpus)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capturePage } from "#server/modules/capture/capture";
import { AXE_RUN_OPTIONS } from "#server/modules/capture/gatherers/axe-results";
import { VIEWPORTS, type Extraction } from "#server/modules/capture/model";
import { AXE_GLOBAL } from "#server/modules/capture/page/global";
import { wrapAxe } from "#server/modules/capture/page-script/axe";
import { axeSource } from "#server/modules/capture/page-script/axe-source";
import { launchBrowser } from "#tests/support/browser";
import { testCaptureJob } from "#tests/support/capture-job";
import { startFixtureServer } from "#tests/support/fixture-server";
import { CORPUS_DIR, serveFolders } from "./corpus-lib";

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const CORPUS_SITES = ["clean-blog", "stylish-portfolio"];
const fixtures = startFixtureServer();
const corpus = serveFolders(Object.fromEntries(CORPUS_SITES.map((t) => [t, join(CORPUS_DIR, t)])));
const PAGES: { name: string; url: string }[] = [
  ...["alpha", "beta"].map((s) => ({ name: `fixture ${s}`, url: fixtures.url(`/${s}/`) })),
  ...CORPUS_SITES.map((t) => ({ name: `corpus ${t}`, url: corpus.url(t) })),
];

const dir = mkdtempSync(join(tmpdir(), "axe-bench-"));
const browser = await launchBrowser();
const source = wrapAxe(await axeSource());
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const loads: string[] = [load()];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function capture(url: string, skipAudit: boolean): Promise<{ ms: number; extraction: Extraction }> {
  const t0 = performance.now();
  const job = testCaptureJob(url, dir, { viewport: "desktop", totalTimeoutMs: 120_000, navigationTimeoutMs: 30_000 });
  const { extraction } = await capturePage(browser, job, () => {}, { skipAudit });
  return { ms: performance.now() - t0, extraction };
}

/** axe on its own in a fresh page after its load: the source's evaluation, then the first audit. */
async function alone(url: string): Promise<{ evalMs: number; runMs: number }> {
  const { width, height } = VIEWPORTS.desktop;
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "load" });
  const t0 = performance.now();
  await page.evaluate(source);
  const evalMs = performance.now() - t0;
  const runMs = await page.evaluate(
    async ([global, options]) => {
      const axe = (window as unknown as Record<string, { run(d: Document, o: object): Promise<unknown> }>)[global]!;
      const t = performance.now();
      await axe.run(document, options);
      return performance.now() - t;
    },
    [AXE_GLOBAL, AXE_RUN_OPTIONS] as const,
  );
  await context.close();
  return { evalMs, runMs };
}

// One warm-up each way: the first evaluation reads axe's source and Chromium's caches fill.
await capture(PAGES[0]!.url, false);
await capture(PAGES[0]!.url, true);

const rows: string[][] = [];
const added: number[] = [];
const ratios: number[] = [];
for (const page of PAGES) {
  const bare: number[] = [];
  const withAxe: number[] = [];
  const inPage: number[] = [];
  const evals: number[] = [];
  const runs: number[] = [];
  let rules = "";
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so a slower moment of the machine does not always land on one side.
    for (const skip of r % 2 === 0 ? [false, true] : [true, false]) {
      const { ms, extraction } = await capture(page.url, skip);
      if (skip) bare.push(ms);
      else {
        withAxe.push(ms);
        const audit = extraction.accessibility.audit;
        inPage.push(audit?.ms ?? NaN);
        rules = audit?.error ?? (audit?.violations.map((v) => `${v.id}×${v.count}`).join(" ") || "none");
      }
    }
    const a = await alone(page.url);
    evals.push(a.evalMs);
    runs.push(a.runMs);
  }
  loads.push(load());
  const b = median(bare);
  const w = median(withAxe);
  added.push(w - b);
  ratios.push(w / b);
  rows.push([
    page.name,
    b.toFixed(0),
    w.toFixed(0),
    (w - b).toFixed(0),
    `${((w / b - 1) * 100).toFixed(0)} %`,
    median(evals).toFixed(0),
    median(runs).toFixed(0),
    median(inPage).toFixed(0),
    rules,
  ]);
}

const head = [
  "page (desktop)",
  "capture without axe ms",
  "with axe ms",
  "added ms",
  "added",
  "alone: source eval ms",
  "alone: audit ms",
  "audit in capture ms",
  "violations",
];
console.log(`axe-core's cost per page (medians of ${rounds}; load average ${loads.join(" → ")})`);
console.log(`| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
console.log(`median added per page: ${median(added).toFixed(0)} ms (${((median(ratios) - 1) * 100).toFixed(0)} % of a desktop capture)`);
console.log("mobile captures run no audit (a page is audited once, on its desktop capture)");

await browser.close();
await fixtures.close();
await corpus.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
