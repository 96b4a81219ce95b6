// Full analysis (capture + extraction + scoring + findings, through the API of a running server)
// vs bare Playwright screenshotting the same pages, side by side in one run.
// Run: bun bench/analysis.bench.ts   (needs Chromium; serves fixture sites on 127.0.0.1)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "../src/lib/chromium";
import { VIEWPORTS, type Viewport } from "../src/modules/capture/model";
import { startFixtureServer } from "../tests/support/fixture-server";
import { startServer } from "../tests/support/server";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const sites = startFixtureServer();
const pages = ["alpha", "beta"].flatMap((s) => (["desktop", "mobile"] as Viewport[]).map((v) => ({ url: sites.url(`/${s}/`), viewport: v })));
const executablePath = findChromium(process.env.CHROMIUM_PATH);
if (!executablePath) throw new Error("no Chromium");

async function bare(): Promise<number> {
  const t0 = performance.now();
  const browser = await chromium.launch({ executablePath: executablePath!, args: CHROMIUM_ARGS });
  const out = mkdtempSync(join(tmpdir(), "bare-"));
  for (const [i, p] of pages.entries()) {
    const vp = VIEWPORTS[p.viewport];
    const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, isMobile: vp.mobile, hasTouch: vp.mobile });
    const page = await ctx.newPage();
    await page.goto(p.url, { waitUntil: "load" });
    await page.screenshot({ path: join(out, `${i}.png`), fullPage: true });
    await ctx.close();
  }
  await browser.close();
  return performance.now() - t0;
}

async function ours(concurrency: number): Promise<{ ms: number; rssMb: number }> {
  const server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_CONCURRENCY: String(concurrency) } });
  const call = async (method: string, path: string, token?: string, body?: unknown) =>
    (await fetch(server.url + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })).json() as Promise<any>;
  const { accessToken: token } = await call("POST", "/api/auth/signup", undefined, { email: "bench@example.com", password: "password-1" });
  const cmp = await call("POST", "/api/comparisons", token, { name: "bench" });
  for (const s of ["alpha", "beta"]) await call("POST", `/api/comparisons/${cmp.id}/targets`, token, { url: sites.url(`/${s}/`), label: s });
  const t0 = performance.now();
  await call("POST", `/api/comparisons/${cmp.id}/start`, token);
  let status = "running";
  let peak = 0;
  while (status === "running") {
    await Bun.sleep(50);
    status = (await call("GET", `/api/comparisons/${cmp.id}`, token)).status;
    const rss = Number(Bun.spawnSync(["ps", "-o", "rss=", "-p", String(server.proc.pid)]).stdout.toString().trim());
    peak = Math.max(peak, rss);
  }
  const ms = performance.now() - t0;
  await server.stop();
  if (status !== "completed") throw new Error(`run ended ${status}`);
  return { ms, rssMb: peak / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const b: number[] = [];
const o1: number[] = [];
const o2: number[] = [];
let rss = 0;
for (let r = 0; r < rounds; r++) {
  b.push(await bare());
  const one = await ours(1);
  o1.push(one.ms);
  const two = await ours(2);
  o2.push(two.ms);
  rss = Math.max(rss, one.rssMb, two.rssMb);
}
await sites.close();
console.log(`pages: 2 fixture sites x desktop+mobile; ${rounds} rounds, medians`);
console.log(`bare Playwright (launch, goto load, full-page screenshot, sequential): ${median(b).toFixed(0)} ms`);
console.log(`ours, 1 page at a time (capture+extract+score+findings):            ${median(o1).toFixed(0)} ms  ratio ${(median(o1) / median(b)).toFixed(2)}`);
console.log(`ours, default 2 pages at a time:                                     ${median(o2).toFixed(0)} ms  ratio ${(median(o2) / median(b)).toFixed(2)} (target <= 1.3)`);
console.log(`server peak RSS during runs: ${rss.toFixed(0)} MB (main process; Chromium is separate)`);
