// Shared by the gatherer tests: small pages served on 127.0.0.1, opened in real Chromium with the
// page script installed the way the capture installs it, and one gatherer run on them.
import { afterAll, beforeAll } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import { VIEWPORTS, type Viewport } from "#server/modules/capture/model";
import type { DOM_GATHERERS, DomGathererName } from "#server/modules/capture/page/entry";
import { callPage, installPageScript } from "#server/modules/capture/page-script/page-script";
import { launchBrowser } from "#tests/support/browser";

export type Route = string | { body: string | Uint8Array<ArrayBuffer>; type?: string; delayMs?: number };

export interface Harness {
  browser: Browser;
  url(path: string): string;
  /** Requests that reached a path so far. */
  hits(path: string): number;
  /** Opens a page with the page script installed, once `load` has fired. */
  open(path: string, viewport?: Viewport): Promise<Page>;
  /** open(), once per path and viewport: for tests that only read the page. */
  shared(path: string, viewport?: Viewport): Promise<Page>;
}

/** Deterministic RGB noise: an image as detailed as a photo (Chromium ignores near-flat images as LCP candidates). */
export function noisyPng(width: number, height: number, seed = 1): Uint8Array<ArrayBuffer> {
  const png = new PNG({ width, height });
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; i < png.data.length; i += 4) png.data.set([rand() * 256, rand() * 256, rand() * 256, 255], i);
  return new Uint8Array(PNG.sync.write(png));
}

export const html = (body: string, head = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fixture</title>${head}</head><body>${body}</body></html>`;

/** Serves `routes` (`?delay=ms` on any path delays its answer) and a browser for the whole file. */
export function useHarness(routes: Record<string, Route>): Harness {
  let server: ReturnType<typeof Bun.serve> | undefined;
  let browser: Browser | undefined;
  const hits = new Map<string, number>();
  beforeAll(async () => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const url = new URL(req.url);
        hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
        const route = routes[url.pathname];
        if (route === undefined) return new Response("not found", { status: 404 });
        const r = typeof route === "string" ? { body: route, type: "text/html; charset=utf-8" } : route;
        const delay = Number(url.searchParams.get("delay") ?? r.delayMs ?? 0);
        if (delay > 0) await Bun.sleep(delay);
        return new Response(r.body, { headers: { "content-type": r.type ?? "text/html; charset=utf-8", "cache-control": "no-store" } });
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop(true);
  });
  const opened = new Map<string, Promise<Page>>();
  const harness: Harness = {
    get browser() {
      return browser!;
    },
    url: (path) => `http://127.0.0.1:${server!.port}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    async open(path, viewport = "desktop") {
      const v = VIEWPORTS[viewport];
      const context = await browser!.newContext({
        viewport: { width: v.width, height: v.height },
        deviceScaleFactor: 1,
        isMobile: v.mobile,
        hasTouch: v.mobile,
      });
      await installPageScript(context);
      const page = await context.newPage();
      await page.goto(harness.url(path), { waitUntil: "load" });
      return page;
    },
    shared(path, viewport = "desktop") {
      const key = `${viewport} ${path}`;
      if (!opened.has(key)) opened.set(key, harness.open(path, viewport));
      return opened.get(key)!;
    },
  };
  return harness;
}

type Gathered<K extends DomGathererName> = ReturnType<(typeof DOM_GATHERERS)[K]>;

/** Runs one DOM gatherer on the page as the capture would (whole page, the viewport's size). */
export async function gather<K extends DomGathererName>(page: Page, name: K, maxY = 8000): Promise<Gathered<K>> {
  const size = page.viewportSize()!;
  return (await callPage(page, "gather", { name, maxY, viewportWidth: size.width, viewportHeight: size.height })) as Gathered<K>;
}
