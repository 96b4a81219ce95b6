// What axe-core adds to a capture (decision 0015): each page captured with the audit and without it
// (CaptureDeps.skipAudit), alternately, in one browser, one capture at a time; medians side by side.
// "axe in page" is the audit's own run (AccessibilityAudit.ms); the rest of what it adds is
// evaluating axe's source into the page (about 650 KB) and the round trips.
// Pages: the fixture sites (alpha, beta) and the corpus templates clean-blog and stylish-portfolio.
// Run: bun bench/axe.bench.ts   (BENCH_ROUNDS=3 by default; CORPUS_DIR overrides ../shared/corpus)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capturePage } from "#server/modules/capture/capture";
import type { Extraction, Viewport } from "#server/modules/capture/model";
import { launchBrowser } from "#tests/support/browser";
import { testCaptureJob } from "#tests/support/capture-job";
import { startFixtureServer } from "#tests/support/fixture-server";
import { CORPUS_DIR, serveFolders } from "./corpus-lib";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const CORPUS_SITES = ["clean-blog", "stylish-portfolio"];
const fixtures = startFixtureServer();
const corpus = serveFolders(Object.fromEntries(CORPUS_SITES.map((t) => [t, join(CORPUS_DIR, t)])));
const PAGES: { name: string; url: string }[] = [
  ...["alpha", "beta"].map((s) => ({ name: `fixture ${s}`, url: fixtures.url(`/${s}/`) })),
  ...CORPUS_SITES.map((t) => ({ name: `corpus ${t}`, url: corpus.url(t) })),
];
const VIEWPORTS: Viewport[] = ["desktop", "mobile"];

const dir = mkdtempSync(join(tmpdir(), "axe-bench-"));
const browser = await launchBrowser();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function capture(url: string, viewport: Viewport, skipAudit: boolean): Promise<{ ms: number; extraction: Extraction }> {
  const t0 = performance.now();
  const { extraction } = await capturePage(
    browser,
    testCaptureJob(url, dir, { viewport, totalTimeoutMs: 120_000, navigationTimeoutMs: 30_000 }),
    () => {},
    {
      skipAudit,
    },
  );
  return { ms: performance.now() - t0, extraction };
}

// One warm-up capture each way: the first evaluation reads axe's source and Chromium's caches fill.
await capture(PAGES[0]!.url, "desktop", false);
await capture(PAGES[0]!.url, "desktop", true);

const rows: string[][] = [];
const added: number[] = [];
const ratios: number[] = [];
for (const page of PAGES) {
  for (const viewport of VIEWPORTS) {
    const bare: number[] = [];
    const withAxe: number[] = [];
    const inPage: number[] = [];
    let rules = "";
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first, so a slower moment of the machine does not always land on one side.
      const order = r % 2 === 0 ? [false, true] : [true, false];
      for (const skip of order) {
        const { ms, extraction } = await capture(page.url, viewport, skip);
        if (skip) bare.push(ms);
        else {
          withAxe.push(ms);
          const audit = extraction.accessibility.audit;
          inPage.push(audit?.ms ?? NaN);
          rules = audit?.error ?? (audit?.violations.map((v) => `${v.id}×${v.count}`).join(" ") || "none");
        }
      }
    }
    const b = median(bare);
    const w = median(withAxe);
    added.push(w - b);
    ratios.push(w / b);
    rows.push([
      page.name,
      viewport,
      b.toFixed(0),
      w.toFixed(0),
      (w - b).toFixed(0),
      `${((w / b - 1) * 100).toFixed(0)} %`,
      median(inPage).toFixed(0),
      rules,
    ]);
  }
}

const head = ["page", "viewport", "capture without axe ms", "with axe ms", "added ms", "added", "axe in page ms", "violations"];
console.log(
  `axe-core's cost per capture (medians of ${rounds}; load ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")})`,
);
console.log(`| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
console.log(`median added per page: ${median(added).toFixed(0)} ms (${((median(ratios) - 1) * 100).toFixed(0)} % of a capture)`);

await browser.close();
await fixtures.close();
await corpus.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
