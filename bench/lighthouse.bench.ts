// Our LCP against Lighthouse 13's observed LCP (desktop preset, same machine, same pages) on the
// corpus templates (../shared/corpus, served on 127.0.0.1). Lighthouse lives in bench/lighthouse
// only (its own package.json; never a product dependency): install it once with
//   (cd bench/lighthouse && npm install)
// Run: bun bench/lighthouse.bench.ts   (BENCH_RUNS=3 loads per side, browser and page by default;
//      BENCH_PAGES=a,b for some templates only; CHROMIUM_PATH=/usr/lib/chromium/chromium runs our
//      capture in the desktop build instead of the headless shell)
//
// Lighthouse runs in both Chromium builds on the machine, alternated with our capture: the desktop
// build (what Lighthouse finds by itself, and the verdict's reference) and the headless shell our
// capture runs in by default. The two builds paint the same page at different moments
// (docs/decisions/0012-headless-shell.md), so the table shows how far Lighthouse moves between them
// beside how far we are from it in each: that tells a measurement error from a browser difference.
//
// Lighthouse's desktop preset *simulates* throttling, so its headline LCP is a model; the figure
// compared here is its observed LCP (audits.metrics observedLargestContentfulPaint: what the
// unthrottled trace saw). Ours is the capture's median over its samples (timing.lcpMs).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capturePage } from "#server/modules/capture/capture";
import { findChromium, findFullChromium, isHeadlessShell } from "#server/lib/chromium";
import { launchBrowser } from "#tests/support/browser";
import { CORPUS_DIR, serveFolders, TEMPLATES } from "./corpus-lib";
import { verdict } from "./lib";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LH_CLI = join(import.meta.dir, "lighthouse/node_modules/lighthouse/cli/index.js");
if (!existsSync(LH_CLI)) throw new Error("Lighthouse is not installed: (cd bench/lighthouse && npm install)");
const desktop = findFullChromium();
if (!desktop) throw new Error("no desktop Chromium (Debian: apt install chromium)");
const shell = findChromium() ?? "";
if (!isHeadlessShell(shell)) throw new Error("no headless shell (Debian: apt install chromium-headless-shell)");
const LH_BROWSERS = { desktop, shell } as const;
type LhBrowser = keyof typeof LH_BROWSERS;

// BENCH_PAGES=one-page-wonder,resume measures some of the templates only.
const PAGES = process.env.BENCH_PAGES ? TEMPLATES.filter((t) => process.env.BENCH_PAGES!.split(",").includes(t)) : TEMPLATES;
const server = serveFolders(Object.fromEntries(PAGES.map((t) => [t, join(CORPUS_DIR, t)])));
const dir = mkdtempSync(join(tmpdir(), "lighthouse-bench-"));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function lighthouse(url: string, chrome: string, i: number): Promise<{ lcp: number; element: string }> {
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
    { env: { ...process.env, CHROME_PATH: chrome }, stdout: "ignore", stderr: "pipe" },
  );
  if ((await proc.exited) !== 0) throw new Error(`lighthouse failed: ${await new Response(proc.stderr).text()}`);
  const report = JSON.parse(readFileSync(out, "utf8"));
  const lcp = report.audits.metrics.details.items[0].observedLargestContentfulPaint as number;
  const node = (report.audits["lcp-breakdown-insight"]?.details?.items ?? []).find((x: { type: string }) => x.type === "node");
  return { lcp, element: node?.selector ?? "?" };
}

const ourBrowser = findChromium(process.env.CHROMIUM_PATH);
const browser = await launchBrowser();
type Load = { lcp: number; element: string };
const rows: { page: string; lh: Record<LhBrowser, number>; ours: number; lhEl: string; ourEl: string; spread: string }[] = [];
let n = 0;
for (const t of PAGES) {
  const url = server.url(t);
  const lh: Record<LhBrowser, Load[]> = { desktop: [], shell: [] };
  const ours: (Load & { spread: string })[] = [];
  for (let r = 0; r < RUNS; r++) {
    // Alternated, so load on the machine hits every side alike.
    for (const b of Object.keys(LH_BROWSERS) as LhBrowser[]) lh[b].push(await lighthouse(url, LH_BROWSERS[b], n++));
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
  rows.push({
    page: t,
    lh: { desktop: median(lh.desktop.map((x) => x.lcp)), shell: median(lh.shell.map((x) => x.lcp)) },
    ours: median(ours.map((x) => x.lcp)),
    lhEl: lh.desktop[0]!.element,
    ourEl: ours[0]!.element,
    spread: ours.map((o) => o.spread).join("; "),
  });
  const list = (xs: Load[]) => xs.map((x) => x.lcp.toFixed(0)).join(", ");
  console.error(`${t}: Lighthouse desktop build ${list(lh.desktop)} / shell ${list(lh.shell)} / ours ${list(ours)}`);
}
await browser.close();
server.stop();
rmSync(dir, { recursive: true, force: true });

console.log(
  `\n${RUNS} loads per side per page, medians (desktop viewport; Lighthouse 13 desktop preset, observed LCP, in ${desktop} and in ${shell}; ours in ${ourBrowser})`,
);
console.log(
  "| page | Lighthouse, desktop build | Lighthouse, shell | shell / desktop build (Lighthouse) | ours | ours / LH desktop build | ours / LH shell | Lighthouse LCP element | our LCP element | our per-capture spread |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
const off = (ratio: number) => Math.abs(ratio - 1);
let worst = 0;
let worstSameBrowser = 0;
const sameBrowser: LhBrowser = ourBrowser && isHeadlessShell(ourBrowser) ? "shell" : "desktop";
for (const r of rows) {
  const [vsDesktop, vsShell] = [r.ours / r.lh.desktop, r.ours / r.lh.shell];
  worst = Math.max(worst, off(vsDesktop));
  worstSameBrowser = Math.max(worstSameBrowser, off(sameBrowser === "shell" ? vsShell : vsDesktop));
  console.log(
    `| ${r.page} | ${r.lh.desktop.toFixed(0)} ms | ${r.lh.shell.toFixed(0)} ms | ${(r.lh.shell / r.lh.desktop).toFixed(2)} | ${r.ours.toFixed(0)} ms | ${vsDesktop.toFixed(2)} | ${vsShell.toFixed(2)} | ${r.lhEl} | ${r.ourEl} | ${r.spread} |`,
  );
}
console.log(`largest |ours / Lighthouse - 1| with Lighthouse in the same build as ours (${sameBrowser}): ${worstSameBrowser.toFixed(2)}`);
verdict("largest |ours / Lighthouse - 1| over the corpus pages, Lighthouse in the desktop build", worst, { atMost: 0.3 });
