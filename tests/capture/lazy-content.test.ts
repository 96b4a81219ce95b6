// What the capture waits for: images that only load once scrolled into view (native
// loading="lazy" and an IntersectionObserver loader), slow ones among them, and content a script
// fetches a little after `load`. Served from 127.0.0.1; checked in the screenshot's pixels.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { capturePage } from "#server/modules/capture/capture";
import { watchNetworkQuiet } from "#server/modules/capture/watchers/network-quiet";
import { launchBrowser } from "#tests/support/browser";
import { testCaptureJob } from "#tests/support/capture-job";

setDefaultTimeout(90_000); // a capture (60 s at most) and its checks

const solid = (rgb: [number, number, number]) => {
  const png = new PNG({ width: 300, height: 200 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([...rgb, 255], i);
  return PNG.sync.write(png);
};
const IMAGES: Record<string, Buffer> = {
  "/red.png": solid([220, 20, 20]),
  "/blue.png": solid([20, 20, 220]),
  "/green.png": solid([20, 180, 20]),
  "/yellow.png": solid([230, 200, 20]),
};

// A feed-style page: after load a script fetches a long section and appends it; the section's own
// lazy image sits far below the height the first scroll covered.
const growing = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Growing</title>
<style>body{margin:0} .gap{height:2400px} img{display:block;width:300px;height:200px}</style></head><body>
<h1>Feed</h1><div class="gap"></div><div id="more"></div>
<script>
addEventListener("load", async () => {
  const r = await fetch("/more.json?delay=400");
  const { src } = await r.json();
  document.getElementById("more").innerHTML = '<div class="gap"></div><div class="gap"></div><img id="appended" loading="lazy" alt="appended" src="' + src + '">';
});
</script></body></html>`;

// Each block sits far below the fold, so nothing loads it until the capture scrolls there.
const page = (extra = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lazy</title>
<style>body{margin:0;font-family:sans-serif} .gap{height:2400px} img,#late{display:block;width:300px;height:200px}</style></head><body>
<h1>Lazy content</h1>${extra}
<div class="gap"></div><img id="native" loading="lazy" src="/red.png?delay=300" alt="native lazy">
<div class="gap"></div><img id="observed" data-src="/blue.png?delay=300" alt="observer lazy">
<div class="gap"></div><div id="late"></div>
<script>
const img = document.getElementById("observed");
new IntersectionObserver((entries, io) => {
  if (entries.some((e) => e.isIntersecting)) { img.src = img.dataset.src; io.disconnect(); }
}).observe(img);
// Content that arrives after load: a fetch started from a timer.
addEventListener("load", () => setTimeout(async () => {
  const r = await fetch("/late.json?delay=150");
  const { src } = await r.json();
  const late = new Image(300, 200);
  late.src = src;
  document.getElementById("late").append(late);
}, 100));
</script></body></html>`;

let server: ReturnType<typeof Bun.serve>;
let browser: Browser;
let dir: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
      await Bun.sleep(Number(url.searchParams.get("delay") ?? 0));
      if (url.pathname === "/") return new Response(page(), { headers: { "content-type": "text/html" } });
      // An image that never arrives: the network never goes quiet.
      if (url.pathname === "/hung")
        return new Response(page('<img src="/hang.png" width="10" height="10" alt="">'), { headers: { "content-type": "text/html" } });
      if (url.pathname === "/late.json") return Response.json({ src: "/green.png?delay=200" });
      if (url.pathname === "/growing") return new Response(growing, { headers: { "content-type": "text/html" } });
      if (url.pathname === "/more.json") return Response.json({ src: "/yellow.png?delay=100" });
      if (url.pathname === "/hang.png") return new Promise<Response>(() => {});
      const png = IMAGES[url.pathname];
      return png ? new Response(new Uint8Array(png), { headers: { "content-type": "image/png" } }) : new Response("no", { status: 404 });
    },
  });
  browser = await launchBrowser();
  dir = mkdtempSync(join(tmpdir(), "lazy-"));
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const job = (path: string) => testCaptureJob(`http://127.0.0.1:${server.port}${path}`, dir);

/** The colour in the middle of the element's box in the screenshot. */
function pixelAt(png: PNG, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * png.width + Math.round(x)) * 4;
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
}

describe("content below the fold", () => {
  test("lazy images, observer-loaded images and late-fetched content are in the screenshot", async () => {
    hits.clear();
    const { extraction, screenshotPath } = await capturePage(browser, job("/"), () => {});
    const png = PNG.sync.read(readFileSync(screenshotPath));
    expect(png.height).toBe(extraction.capturedHeight);
    expect(hits.get("/red.png")).toBe(1);
    expect(hits.get("/blue.png")).toBe(1);
    expect(hits.get("/green.png")).toBe(1);
    const tops = await boxesOf(screenshotPath);
    expect(pixelAt(png, 150, tops.native + 100)).toEqual([220, 20, 20]);
    expect(pixelAt(png, 150, tops.observed + 100)).toEqual([20, 20, 220]);
    expect(pixelAt(png, 150, tops.late + 100)).toEqual([20, 180, 20]);
    expect(extraction.timing.requests).toBeGreaterThanOrEqual(5);
  });
});

describe("a slow site, within the limits", () => {
  test("a document that takes 2 s to answer is captured whole, and its time to first byte says so", async () => {
    hits.clear();
    const { extraction, screenshotPath } = await capturePage(browser, job("/?delay=2000"), () => {});
    expect(extraction.title).toBe("Lazy");
    expect(extraction.timing.ttfbMs).toBeGreaterThanOrEqual(1900);
    expect(hits.get("/red.png")).toBe(1);
    expect(hits.get("/green.png")).toBe(1);
    const png = PNG.sync.read(readFileSync(screenshotPath));
    const tops = await boxesOf(screenshotPath);
    expect(pixelAt(png, 150, tops.native + 100)).toEqual([220, 20, 20]);
    expect(pixelAt(png, 150, tops.late + 100)).toEqual([20, 180, 20]);
  });
});

describe("a page that grows after the scroll", () => {
  test("gets a second pass, so the lazy image in the appended section is in the screenshot", async () => {
    hits.clear();
    const { extraction, screenshotPath } = await capturePage(browser, job("/growing"), () => {});
    expect(hits.get("/more.json")).toBe(1);
    expect(hits.get("/yellow.png")).toBe(1);
    expect(extraction.pageHeight).toBeGreaterThan(7000);
    const png = PNG.sync.read(readFileSync(screenshotPath));
    let found = -1;
    for (let y = png.height - 1; y >= 0 && found < 0; y--) {
      const p = pixelAt(png, 150, y);
      if (p[0] === 230 && p[1] === 200 && p[2] === 20) found = y;
    }
    expect(found).toBeGreaterThan(7000);
  });
});

/** Finds where the three blocks start by scanning the left column of the screenshot for their colours. */
async function boxesOf(path: string): Promise<{ native: number; observed: number; late: number }> {
  const png = PNG.sync.read(readFileSync(path));
  const first = (rgb: [number, number, number]) => {
    for (let y = 0; y < png.height; y++) {
      const p = pixelAt(png, 150, y);
      if (p[0] === rgb[0] && p[1] === rgb[1] && p[2] === rgb[2]) return y;
    }
    return -1_000_000; // not found: the pixel check below fails with the colour it saw instead
  };
  return { native: first([220, 20, 20]), observed: first([20, 20, 220]), late: first([20, 180, 20]) };
}

describe("waiting for the network to go quiet", () => {
  const fakePage = () => {
    const listeners = new Map<string, ((r: object) => void)[]>();
    return {
      on(event: string, fn: (r: object) => void) {
        listeners.set(event, [...(listeners.get(event) ?? []), fn]);
      },
      emit(event: string, r: object) {
        for (const fn of listeners.get(event) ?? []) fn(r);
      },
    };
  };

  test("quiet only after every request settled and the window passed", async () => {
    const page = fakePage();
    // The test moves the clock: a busy machine running the test late must not change the answer.
    let t = 0;
    const quiet = watchNetworkQuiet(page, () => t);
    const a = {};
    page.emit("request", a);
    let settled: boolean | null = null;
    const wait = quiet.waitForQuiet(60, 2000).then((v) => (settled = v));
    t = 100;
    await Bun.sleep(100);
    expect(settled).toBeNull(); // still in flight
    page.emit("requestfinished", a);
    t = 120;
    await Bun.sleep(100); // its timers run, and find the clock inside the window
    expect(settled).toBeNull(); // inside the quiet window
    t = 180;
    expect(await wait).toBe(true);
    expect(quiet.started()).toBe(1);
  });

  test("a request that never ends times the wait out, and can be ignored afterwards", async () => {
    const page = fakePage();
    const quiet = watchNetworkQuiet(page);
    page.emit("request", {});
    expect(await quiet.waitForQuiet(20, 80)).toBe(false);
    const hung = quiet.inFlight();
    expect(hung.size).toBe(1);
    const woken = {};
    page.emit("request", woken);
    expect(await quiet.waitForQuiet(20, 60, hung)).toBe(false); // the newly woken one is waited for
    page.emit("requestfailed", woken);
    expect(await quiet.waitForQuiet(20, 500, hung)).toBe(true);
  });

  test("a network long silent is quiet at once", async () => {
    const page = fakePage();
    let t = 0;
    const quiet = watchNetworkQuiet(page, () => t);
    t = 10_000;
    expect(await quiet.waitForQuiet(250, 0)).toBe(true);
  });
});

describe("a page with a request that never finishes", () => {
  test("still gets its lazy images; the hung request only costs the bounded waits", async () => {
    hits.clear();
    // `load` never fires here, so the navigation limit is what ends that wait.
    // 8 s: a small page on a busy machine can take 3 s to reach DOMContentLoaded.
    const { extraction, screenshotPath } = await capturePage(browser, { ...job("/hung"), navigationTimeoutMs: 8000 }, () => {});
    expect(extraction.title).toBe("Lazy");
    expect(hits.get("/hang.png")).toBeGreaterThanOrEqual(1);
    expect(hits.get("/red.png")).toBe(1);
    expect(hits.get("/blue.png")).toBe(1);
    const png = PNG.sync.read(readFileSync(screenshotPath));
    const tops = await boxesOf(screenshotPath);
    expect(pixelAt(png, 150, tops.native + 100)).toEqual([220, 20, 20]);
    expect(pixelAt(png, 150, tops.observed + 100)).toEqual([20, 20, 220]);
  });
});
