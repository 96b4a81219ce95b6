// Our LCP against Lighthouse 13's observed LCP (desktop preset, same machine, same pages) on the
// corpus templates (../shared/corpus, served on 127.0.0.1). Lighthouse lives in bench/lighthouse
// only (its own package.json; never a product dependency): install it once with
//   (cd bench/lighthouse && npm install)
// Run: bun bench/lighthouse.bench.ts   (BENCH_RUNS=3 loads per side and page by default;
//      BENCH_PAGES=a,b for some templates only;
//      LH_CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell runs Lighthouse in the capture's
//      own browser, to tell the measurement apart from the browser; CHROMIUM_PATH=/usr/lib/chromium/chromium
//      runs our capture in the desktop build instead, for both sides in the same browser)
//
// Lighthouse's desktop preset *simulates* throttling, so its headline LCP is a model; the figure
// compared here is its observed LCP (audits.metrics observedLargestContentfulPaint: what the
// unthrottled trace saw). Ours is the capture's median over its samples (timing.lcpMs).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capturePage } from "#server/modules/capture/capture";
import { findChromium, findFullChromium } from "#server/lib/chromium";
import { launchBrowser } from "#tests/support/browser";
import { CORPUS_DIR, serveFolders, TEMPLATES } from "./corpus-lib";
import { verdict } from "./lib";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LH_CLI = join(import.meta.dir, "lighthouse/node_modules/lighthouse/cli/index.js");
if (!existsSync(LH_CLI)) throw new Error("Lighthouse is not installed: (cd bench/lighthouse && npm install)");
// By default Lighthouse measures in a visitor's browser, the desktop Chromium, not the capture's headless shell.
const chrome = process.env.LH_CHROMIUM_PATH || findFullChromium(process.env.CHROMIUM_PATH);
if (!chrome) throw new Error("no desktop Chromium (Debian: apt install chromium)");

// BENCH_PAGES=one-page-wonder,resume measures some of the templates only.
const PAGES = process.env.BENCH_PAGES ? TEMPLATES.filter((t) => process.env.BENCH_PAGES!.split(",").includes(t)) : TEMPLATES;
const server = serveFolders(Object.fromEntries(PAGES.map((t) => [t, join(CORPUS_DIR, t)])));
const dir = mkdtempSync(join(tmpdir(), "lighthouse-bench-"));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function lighthouse(url: string, i: number): Promise<{ lcp: number; element: string }> {
  const out = join(dir, `lh-${i}.json`);
  const proc = Bun.spawn(
    [
      "node",
      LH_CLI,
      url,
      "--preset=desktop",
      "--only-categories=performance",
      "--output=json",
      `--output-path=${out}`,
      "--quiet",
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
    ],
    { env: { ...process.env, CHROME_PATH: chrome! }, stdout: "ignore", stderr: "pipe" },
  );
  if ((await proc.exited) !== 0) throw new Error(`lighthouse failed: ${await new Response(proc.stderr).text()}`);
  const report = JSON.parse(readFileSync(out, "utf8"));
  const lcp = report.audits.metrics.details.items[0].observedLargestContentfulPaint as number;
  const node = (report.audits["lcp-breakdown-insight"]?.details?.items ?? []).find((x: { type: string }) => x.type === "node");
  return { lcp, element: node?.selector ?? "?" };
}

const browser = await launchBrowser();
const rows: { page: string; lh: number; ours: number; lhEl: string; ourEl: string; spread: string }[] = [];
let n = 0;
for (const t of PAGES) {
  const url = server.url(t);
  const lh: { lcp: number; element: string }[] = [];
  const ours: { lcp: number; element: string; spread: string }[] = [];
  for (let r = 0; r < RUNS; r++) {
    // Alternated, so load on the machine hits both alike.
    lh.push(await lighthouse(url, n++));
    const { extraction: e } = await capturePage(
      browser,
      {
        jobId: t,
        url,
        viewport: "desktop",
        screenshotPath: join(dir, `${t}.png`),
        allowPrivate: true,
        navigationTimeoutMs: 30_000,
        totalTimeoutMs: 120_000,
        maxHeightPx: 16_000,
      },
      () => {},
    );
    const s = e.timing.spread?.lcpMs;
    ours.push({
      lcp: e.timing.lcpMs ?? NaN,
      element: e.timing.lcpElement ?? "?",
      spread: s ? `${s.min}–${s.max} over ${e.timing.samples?.length}` : "-",
    });
  }
  const lhMid = median(lh.map((x) => x.lcp));
  const ourMid = median(ours.map((x) => x.lcp));
  rows.push({
    page: t,
    lh: lhMid,
    ours: ourMid,
    lhEl: lh[0]!.element,
    ourEl: ours[0]!.element,
    spread: ours.map((o) => o.spread).join("; "),
  });
  console.error(`${t}: lighthouse ${lh.map((x) => x.lcp.toFixed(0)).join(", ")} / ours ${ours.map((x) => x.lcp).join(", ")}`);
}
await browser.close();
server.stop();
rmSync(dir, { recursive: true, force: true });

console.log(
  `\n${RUNS} runs per side per page, medians (desktop; Lighthouse 13 desktop preset, observed LCP; Lighthouse in ${chrome}, ours in ${findChromium(process.env.CHROMIUM_PATH)})`,
);
console.log("| page | Lighthouse LCP | ours | ours / LH | Lighthouse LCP element | our LCP element | our per-capture spread |");
console.log("|---|---|---|---|---|---|---|");
let worst = 0;
for (const r of rows) {
  const ratio = r.ours / r.lh;
  worst = Math.max(worst, Math.abs(ratio - 1));
  console.log(
    `| ${r.page} | ${r.lh.toFixed(0)} ms | ${r.ours.toFixed(0)} ms | ${ratio.toFixed(2)} | ${r.lhEl} | ${r.ourEl} | ${r.spread} |`,
  );
}
verdict("largest |ours / Lighthouse - 1| over the corpus pages", worst, { atMost: 0.3 });
