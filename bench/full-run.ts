// What the full-analysis benches share (bench/analysis.bench.ts, bench/pages.bench.ts): bare
// Playwright taking the same screenshots (one browser, parallel contexts), and a warm server whose
// runs are timed from POST /start to the run's end as heard over the live socket.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";
import { VIEWPORTS, type Viewport } from "#server/modules/capture/model";
import { startServer } from "#tests/support/server";

export const VIEWPORT_NAMES: Viewport[] = ["desktop", "mobile"];
const executablePath = findChromium(process.env.CHROMIUM_PATH);

/**
 * Bare Playwright, browser launch included: every URL at both viewports as parallel contexts,
 * `load`, full-page screenshot. Offline, it gets --disable-features=AsyncDns so both sides give up
 * on CDN hosts equally fast.
 */
export async function bare(urls: string[]): Promise<number> {
  if (!executablePath) throw new Error("no Chromium");
  const out = mkdtempSync(join(tmpdir(), "bare-"));
  const t0 = performance.now();
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, "--disable-features=AsyncDns"] });
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

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** A server as deployed (capture browsers launched before the first run), and its API. */
export async function warmServer() {
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
  for (let i = 0; i < 300; i++) {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { capture: { browsers: number } | null };
    if ((health.capture?.browsers ?? 0) >= 2) break;
    await Bun.sleep(50);
  }

  /** One run of the comparison, from POST /start to `completed` (heard over the socket), with the server's peak RSS. */
  async function timedRun(token: string, comparisonId: string): Promise<{ ms: number; rssMb: number }> {
    const ws = new WebSocket(`${server.url.replace("http", "ws")}/ws`, { protocols: ["design-intel.v1", `bearer.${token}`] } as never);
    await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
    const ended = new Promise<string>((resolve) => {
      ws.onmessage = (e) => {
        const m = JSON.parse(String(e.data)) as { type: string; payload?: { comparisonId?: string; status?: string } };
        const p = m.payload;
        if (m.type === "COMPARISON_STATUS" && p && p.comparisonId === comparisonId && p.status !== "running") resolve(p.status!);
      };
    });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.proc.pid))), 100);
    const t0 = performance.now();
    await call("POST", `/api/comparisons/${comparisonId}/start`, token);
    const status = await ended;
    const ms = performance.now() - t0;
    clearInterval(sampler);
    ws.close();
    if (status !== "completed") throw new Error(`run ended ${status}`);
    return { ms, rssMb: peak };
  }

  return { server, call, signup, timedRun };
}
