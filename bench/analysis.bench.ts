// Full analysis (capture + extraction + scoring + findings, through the API of a running server)
// vs bare Playwright screenshotting the same pages, side by side in one run.
// Run: bun bench/analysis.bench.ts   (needs Chromium; serves fixture sites on 127.0.0.1)
//
// "Warm" is the product as deployed: a server that has finished booting keeps its capture
// browsers launched. "Cold" is the first analysis on a server that was started a moment before,
// while those browsers are still launching. Bare launches its browser inside the timing, as a
// one-off script would; "bare, browser already open" is printed as well so nothing is hidden.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";
import { VIEWPORTS, type Viewport } from "#server/modules/capture/model";
import { startFixtureServer } from "#tests/support/fixture-server";
import { startServer } from "#tests/support/server";
import { verdict } from "./lib";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const sites = startFixtureServer();
const pages = ["alpha", "beta"].flatMap((s) => (["desktop", "mobile"] as Viewport[]).map((v) => ({ url: sites.url(`/${s}/`), viewport: v })));
const executablePath = findChromium(process.env.CHROMIUM_PATH);
if (!executablePath) throw new Error("no Chromium");

async function screenshotAll(browser: Browser) {
  const out = mkdtempSync(join(tmpdir(), "bare-"));
  for (const [i, p] of pages.entries()) {
    const vp = VIEWPORTS[p.viewport];
    const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, isMobile: vp.mobile, hasTouch: vp.mobile });
    const page = await ctx.newPage();
    await page.goto(p.url, { waitUntil: "load" });
    await page.screenshot({ path: join(out, `${i}.png`), fullPage: true });
    await ctx.close();
  }
  rmSync(out, { recursive: true, force: true });
}

/** Bare Playwright; `launched` times only the pages, with a browser opened beforehand. */
async function bare(launched = false): Promise<number> {
  let browser = launched ? await chromium.launch({ executablePath: executablePath!, args: CHROMIUM_ARGS }) : null;
  const t0 = performance.now();
  browser ??= await chromium.launch({ executablePath: executablePath!, args: CHROMIUM_ARGS });
  await screenshotAll(browser);
  const ms = performance.now() - t0;
  await browser.close();
  return ms;
}

type Server = Awaited<ReturnType<typeof startServer>>;

async function openServer(concurrency: number) {
  const server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_CONCURRENCY: String(concurrency) } });
  const call = async (method: string, path: string, token?: string, body?: unknown) =>
    (await fetch(server.url + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })).json() as Promise<any>;
  const { accessToken: token } = await call("POST", "/api/auth/signup", undefined, { email: "bench@example.com", password: "password-1" });
  return { server, call, token: token as string };
}

async function waitWarm(server: Server, concurrency: number) {
  for (let i = 0; i < 300; i++) {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { capture: { browsers: number } | null };
    if ((health.capture?.browsers ?? 0) >= concurrency) return;
    await Bun.sleep(50);
  }
  throw new Error("capture browsers never became ready");
}

/** The server's resident memory, read straight from /proc (cheaper than spawning ps while timing). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb ?? 0) / 1024;
}

/**
 * One analysis of the 4 pages, timed from POST /start until the comparison is completed. The end
 * comes over the live socket, as it does in the app, so no polling loads the server meanwhile.
 */
async function analyse(s: Awaited<ReturnType<typeof openServer>>): Promise<{ ms: number; rssMb: number }> {
  const { call, token, server } = s;
  const cmp = await call("POST", "/api/comparisons", token, { name: "bench" });
  for (const site of ["alpha", "beta"]) await call("POST", `/api/comparisons/${cmp.id}/targets`, token, { url: sites.url(`/${site}/`), label: site });
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
  return { ms, rssMb: peak };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const bareLaunch: number[] = [];
const bareOpen: number[] = [];
const warm: Record<number, number[]> = { 1: [], 2: [] };
const cold: number[] = [];
let rss = 0;

for (const concurrency of [2, 1]) {
  const s = await openServer(concurrency);
  await waitWarm(s.server, concurrency);
  for (let r = 0; r < rounds; r++) {
    // Interleaved so a change in machine load hits both sides alike.
    if (concurrency === 2) bareLaunch.push(await bare());
    else bareOpen.push(await bare(true));
    const run = await analyse(s);
    warm[concurrency]!.push(run.ms);
    rss = Math.max(rss, run.rssMb);
  }
  await s.server.stop();
}
for (let r = 0; r < rounds; r++) {
  const s = await openServer(2); // no waiting: the browsers are still launching
  cold.push((await analyse(s)).ms);
  await s.server.stop();
}
await sites.close();

const b = median(bareLaunch);
const line = (label: string, xs: number[]) => `${label.padEnd(58)} ${median(xs).toFixed(0).padStart(5)} ms  ratio ${(median(xs) / b).toFixed(2)}`;
console.log(`pages: 2 fixture sites x desktop+mobile; ${rounds} rounds, medians`);
console.log(`${"bare Playwright (launch, goto load, full-page screenshot)".padEnd(58)} ${b.toFixed(0).padStart(5)} ms`);
console.log(`${"bare Playwright, browser already open".padEnd(58)} ${median(bareOpen).toFixed(0).padStart(5)} ms`);
console.log(line("ours, warm server, default 2 pages at a time", warm[2]!));
console.log(`${line("ours, warm server, 1 page at a time", warm[1]!)}  vs browser-open bare ${(median(warm[1]!) / median(bareOpen)).toFixed(2)}`);
console.log(line("ours, first analysis right after boot (cold)", cold));
console.log(`server peak RSS during warm runs: ${rss.toFixed(0)} MB (main process; Chromium is separate)`);
verdict("full analysis (warm server) / bare Playwright", median(warm[2]!) / b, { atMost: 1.3 });
