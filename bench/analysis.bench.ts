// Full analysis (capture, extraction, scoring, findings) through the API of a running server vs
// bare Playwright screenshotting the same pages, as issue 12 defines the comparison:
//   ours  from POST /api/comparisons/:id/start to the run's `completed` (over the live socket),
//         on a warm server (its capture browsers already launched, as deployed)
//   bare  one script that launches one Chromium, opens every page at both viewports as parallel
//         contexts, waits for `load` and takes full-page screenshots
// timed alternately in the same run, medians reported, on two page sets: the small fixture sites
// and real templates from ../shared/corpus. Offline, bare gets --disable-features=AsyncDns so both
// give up on CDN hosts equally fast. Target: ratio <= 1.3 on both sets.
// Run: bun bench/analysis.bench.ts   (BENCH_ROUNDS=5 by default; needs Chromium)
//      BENCH_SETS=fixture runs one set only (matched against the set names)
//      BENCH_FRESH_PAGES=1 makes every analysis a new user's first (no earlier timing samples)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";
import { VIEWPORTS, type Viewport } from "#server/modules/capture/model";
import { startFixtureServer } from "#tests/support/fixture-server";
import { startServer } from "#tests/support/server";
import { CORPUS_DIR, serveFolders } from "./corpus-lib";
import { verdict } from "./lib";

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const executablePath = findChromium(process.env.CHROMIUM_PATH);
if (!executablePath) throw new Error("no Chromium");

const fixtures = startFixtureServer();
const CORPUS_SITES = ["clean-blog", "stylish-portfolio"];
const corpus = serveFolders(Object.fromEntries(CORPUS_SITES.map((t) => [t, join(CORPUS_DIR, t)])));
const SETS = {
  "fixture sites (alpha, beta)": ["alpha", "beta"].map((s) => fixtures.url(`/${s}/`)),
  [`corpus templates (${CORPUS_SITES.join(", ")})`]: CORPUS_SITES.map((t) => corpus.url(t)),
};
const VIEWPORT_NAMES: Viewport[] = ["desktop", "mobile"];

/** Bare Playwright, browser launch included. */
async function bare(urls: string[]): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), "bare-"));
  const t0 = performance.now();
  const browser = await chromium.launch({ executablePath: executablePath!, args: [...CHROMIUM_ARGS, "--disable-features=AsyncDns"] });
  await Promise.all(
    urls.flatMap((url, i) =>
      VIEWPORT_NAMES.map(async (v) => {
        const vp = VIEWPORTS[v];
        const ctx = await browser.newContext({
          viewport: { width: vp.width, height: vp.height },
          isMobile: vp.mobile,
          hasTouch: vp.mobile,
        });
        const page = await ctx.newPage();
        await page.goto(url, { waitUntil: "load", timeout: 60_000 });
        await page.screenshot({ path: join(out, `${i}-${v}.png`), fullPage: true });
        await ctx.close();
      }),
    ),
  );
  const ms = performance.now() - t0;
  await browser.close();
  rmSync(out, { recursive: true, force: true });
  return ms;
}

// CAPTURE_TIMING_SAMPLES=1 shows what the extra timing loads cost (the product default is 3).
const server = await startServer({
  env: { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_LAZY: "", CAPTURE_TIMING_SAMPLES: process.env.CAPTURE_TIMING_SAMPLES ?? "" },
});
const call = async (method: string, path: string, token?: string, body?: unknown) =>
  (
    await fetch(server.url + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).json() as Promise<any>;
const signup = async (n: number) =>
  (await call("POST", "/api/auth/signup", undefined, { email: `bench${n}@example.com`, password: "password-1" })).accessToken as string;
let users = 0;
let token = await signup(++users);
// Timing samples of a page measured in the last hour by the same owner stand in for extra timing
// loads (capture/timing/timing-samples.ts). BENCH_FRESH_PAGES=1 runs every analysis as a new user, so
// each is that user's first look at the pages and every sample is a load of its own.
const freshPages = process.env.BENCH_FRESH_PAGES === "1";

for (let i = 0; i < 300; i++) {
  const health = (await (await fetch(`${server.url}/api/health`)).json()) as { capture: { browsers: number } | null };
  if ((health.capture?.browsers ?? 0) >= 2) break;
  await Bun.sleep(50);
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** One analysis of `urls` at both viewports, from POST /start to `completed` (heard over the socket). */
async function analyse(urls: string[]): Promise<{ ms: number; rssMb: number; spreads: string[] }> {
  const cmp = await call("POST", "/api/comparisons", token, { name: "bench" });
  for (const [i, url] of urls.entries()) await call("POST", `/api/comparisons/${cmp.id}/targets`, token, { url, label: `site ${i + 1}` });
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/ws`, { protocols: ["design-intel.v1", `bearer.${token}`] } as never);
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  const ended = new Promise<string>((resolve) => {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as { type: string; payload?: { comparisonId?: string; status?: string } };
      const p = m.payload;
      if (m.type === "COMPARISON_STATUS" && p && p.comparisonId === cmp.id && p.status !== "running") resolve(p.status!);
    };
  });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.proc.pid))), 100);
  const t0 = performance.now();
  await call("POST", `/api/comparisons/${cmp.id}/start`, token);
  const status = await ended;
  const ms = performance.now() - t0;
  clearInterval(sampler);
  ws.close();
  if (status !== "completed") throw new Error(`run ended ${status}`);
  const snapshots = await call("GET", `/api/comparisons/${cmp.id}/snapshots`, token);
  const diffs = await call("GET", `/api/comparisons/${cmp.id}/diffs`, token);
  const spreads = snapshots.map((s: any) => {
    const t = s.extraction.timing;
    const r = t.spread?.lcpMs;
    const earlier = (t.samples ?? []).filter((x: any) => x.fromRunAt).length;
    return `${s.viewport} LCP ${t.lcpMs} ms [${r ? `${r.min}-${r.max}` : "-"}] over ${t.samples?.length ?? 1}${earlier ? ` (${earlier} from earlier runs)` : ""}`;
  });
  for (const d of diffs)
    spreads.push(`${d.viewport} design ${d.designSimilarity} content ${d.contentSimilarity} overall ${d.overallSimilarity}`);
  return { ms, rssMb: peak, spreads };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const results: { set: string; bare: number[]; ours: number[]; rss: number; spreads: string[] }[] = [];
for (const [set, urls] of Object.entries(SETS).filter(([name]) => name.includes(process.env.BENCH_SETS ?? ""))) {
  const r = { set, bare: [] as number[], ours: [] as number[], rss: 0, spreads: [] as string[] };
  await analyse(urls); // one unmeasured run: first-use costs (worker start, page bundle) are not per-analysis
  for (let i = 0; i < rounds; i++) {
    // Alternated (and the order swapped each round) so a change in machine load hits both alike.
    const bareFirst = i % 2 === 0;
    if (bareFirst) r.bare.push(await bare(urls));
    if (freshPages) token = await signup(++users);
    const run = await analyse(urls);
    r.ours.push(run.ms);
    r.rss = Math.max(r.rss, run.rssMb);
    r.spreads = run.spreads;
    if (!bareFirst) r.bare.push(await bare(urls));
  }
  results.push(r);
}
await server.stop();
await fixtures.close();
corpus.stop();

const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `${rounds} rounds per set, alternated, medians; load average at the end ${load}; ${freshPages ? "every analysis a new user's first (no earlier timing samples)" : "one user (earlier runs' timing samples count)"}`,
);
for (const r of results) {
  console.log(`\n${r.set}, desktop + mobile`);
  console.log(
    `  bare Playwright (launch, parallel contexts, load, full-page screenshot)  ${median(r.bare).toFixed(0)} ms   [${r.bare.map((x) => x.toFixed(0)).join(", ")}]`,
  );
  console.log(
    `  full analysis (POST /start -> completed, warm server)                 ${median(r.ours).toFixed(0)} ms   [${r.ours.map((x) => x.toFixed(0)).join(", ")}]`,
  );
  console.log(`  server peak RSS ${r.rss.toFixed(0)} MB; last run's timing: ${r.spreads.join("; ")}`);
}
console.log("");
for (const r of results) verdict(`${r.set}: full analysis / bare Playwright`, median(r.ours) / median(r.bare), { atMost: 1.3 });
