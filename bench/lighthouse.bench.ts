// Our LCP and Speed Index against Lighthouse 13's observed ones (desktop preset, same machine, same
// pages) on the corpus templates (../shared/corpus, served on 127.0.0.1). Lighthouse lives in
// bench/lighthouse only (its own package.json; never a product dependency): install it once with
//   (cd bench/lighthouse && npm ci)
// Run: bun bench/lighthouse.bench.ts   (BENCH_RUNS=3 loads per side, browser and page by default;
//      BENCH_PAGES=a,b for some templates only; CHROMIUM_PATH=/usr/lib/chromium/chromium runs our
//      capture in the desktop build instead of the headless shell; BENCH_OTHER_BUILD=0 runs
//      Lighthouse in our capture's build only)
//
// Lighthouse runs in both Chromium builds on the machine, alternated with our capture: the desktop
// build (what Lighthouse finds by itself) and the headless shell our capture runs in by default.
// The two builds paint the same page at different moments (docs/decisions/0012-headless-shell.md),
// so the verdict compares with Lighthouse in the same build as our capture, and the table shows how
// far Lighthouse moves between builds beside it: that tells a measurement error from a browser difference.
//
// Lighthouse's desktop preset *simulates* throttling, so its headline figures are a model; those
// compared here are its observed ones (audits.metrics observedLargestContentfulPaint and
// observedSpeedIndex: what the unthrottled trace saw). Ours: LCP is the capture's median over its
// samples (timing.lcpMs); Speed Index is its own load's, from its filmstrip (timing.speedIndexMs).
// Verdict: within ±30 % of Lighthouse in the same build on at least 4 of the 5 pages, for each.
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

async function lighthouse(url: string, chrome: string, i: number): Promise<Load> {
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
  const observed = report.audits.metrics.details.items[0];
  const node = (report.audits["lcp-breakdown-insight"]?.details?.items ?? []).find((x: { type: string }) => x.type === "node");
  return { lcp: observed.observedLargestContentfulPaint, si: observed.observedSpeedIndex, element: node?.selector ?? "?" };
}

const ourBrowser = findChromium(process.env.CHROMIUM_PATH);
const sameBuild: LhBrowser = ourBrowser && isHeadlessShell(ourBrowser) ? "shell" : "desktop";
const builds = (Object.keys(LH_BROWSERS) as LhBrowser[]).filter((b) => process.env.BENCH_OTHER_BUILD !== "0" || b === sameBuild);
const browser = await launchBrowser();
type Load = { lcp: number; si: number; element: string };
type Row = {
  page: string;
  lh: Partial<Record<LhBrowser, { lcp: number; si: number }>>;
  ours: { lcp: number; si: number };
  lhEl: string;
  ourEl: string;
  spread: string;
  siMethod: string;
};
const rows: Row[] = [];
let n = 0;
for (const t of PAGES) {
  const url = server.url(t);
  const lh: Record<LhBrowser, Load[]> = { desktop: [], shell: [] };
  const ours: (Load & { spread: string; siMethod: string })[] = [];
  for (let r = 0; r < RUNS; r++) {
    // Alternated, so load on the machine hits every side alike.
    for (const b of builds) lh[b].push(await lighthouse(url, LH_BROWSERS[b], n++));
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
      si: e.timing.speedIndexMs ?? NaN,
      element: e.timing.lcpElement ?? "?",
      spread: s ? `${s.min}–${s.max} over ${e.timing.samples?.length}` : "-",
      siMethod: e.timing.measuredBy?.speedIndex.method ?? e.timing.measuredBy?.speedIndex.reason ?? "-",
    });
  }
  const medians = (xs: Load[]) => ({ lcp: median(xs.map((x) => x.lcp)), si: median(xs.map((x) => x.si)) });
  rows.push({
    page: t,
    lh: Object.fromEntries(builds.map((b) => [b, medians(lh[b])])),
    ours: medians(ours),
    lhEl: lh[sameBuild][0]!.element,
    ourEl: ours[0]!.element,
    spread: ours.map((o) => o.spread).join("; "),
    siMethod: ours[0]!.siMethod.slice(0, 60),
  });
  const list = (xs: Load[], k: "lcp" | "si") => xs.map((x) => x[k].toFixed(0)).join(", ");
  for (const k of ["lcp", "si"] as const)
    console.error(`${t} ${k}: ${builds.map((b) => `Lighthouse ${b} ${list(lh[b], k)}`).join(" / ")} / ours ${list(ours, k)}`);
}
await browser.close();
server.stop();
rmSync(dir, { recursive: true, force: true });

const other: LhBrowser = sameBuild === "shell" ? "desktop" : "shell";
const fig = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "–" : `${v.toFixed(0)} ms`);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !(b > 0) ? NaN : a / b);
const r2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "–");
console.log(
  `\n${RUNS} loads per side per page, medians (desktop viewport; Lighthouse 13 desktop preset, observed LCP and Speed Index, in ${builds.map((b) => LH_BROWSERS[b]).join(" and in ")}; ours in ${ourBrowser}, the same build as Lighthouse's "${sameBuild}")`,
);
console.log(
  `| page | LCP: Lighthouse, same build | ours | ours / LH | LCP: Lighthouse, ${other} | SI: Lighthouse, same build | ours | ours / LH | SI: Lighthouse, ${other} | Lighthouse LCP element | our LCP element | our LCP spread per capture |`,
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
const within = (x: number) => Number.isFinite(x) && Math.abs(x - 1) <= 0.3;
let lcpWithin = 0;
let siWithin = 0;
for (const r of rows) {
  const lcpRatio = ratio(r.ours.lcp, r.lh[sameBuild]?.lcp);
  const siRatio = ratio(r.ours.si, r.lh[sameBuild]?.si);
  if (within(lcpRatio)) lcpWithin++;
  if (within(siRatio)) siWithin++;
  console.log(
    `| ${r.page} | ${fig(r.lh[sameBuild]?.lcp)} | ${fig(r.ours.lcp)} | ${r2(lcpRatio)} | ${fig(r.lh[other]?.lcp)} | ${fig(r.lh[sameBuild]?.si)} | ${fig(r.ours.si)} | ${r2(siRatio)} | ${fig(r.lh[other]?.si)} | ${r.lhEl} | ${r.ourEl} | ${r.spread} |`,
  );
}
console.log(`our Speed Index measured by: ${rows[0]?.siMethod ?? "-"}…`);
// "At least 4 of 5": one page in five may miss, on a corpus of any size.
const needed = Math.ceil(rows.length * 0.8);
verdict(`pages whose LCP is within ±30 % of Lighthouse's in the same build (${sameBuild}), of ${rows.length}`, lcpWithin, {
  atLeast: needed,
});
verdict(`pages whose Speed Index is within ±30 % of Lighthouse's in the same build (${sameBuild}), of ${rows.length}`, siWithin, {
  atLeast: needed,
});
