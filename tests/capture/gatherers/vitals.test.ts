// The vitals gatherer in real Chromium: web-vitals' FCP, LCP (with the element named) and CLS, read
// the way the capture reads them, and through the capture itself.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capturePage } from "#server/modules/capture/capture";
import { callPage } from "#server/modules/capture/page-script";
import { html, noisyPng, useHarness } from "./harness";

const HERO_DELAY_MS = 300;

const h = useHarness({
  // Small text first, then a big image that arrives later: the image is the largest paint.
  "/hero": html(`<p>Loading the hero…</p><img id="hero" src="/hero.png?delay=${HERO_DELAY_MS}" width="900" height="500" alt="Hero">`),
  // Text only: the heading is the largest paint, named by its classes and its ancestors'.
  "/text": html(`<section class="hero wide"><h1 class="title">A heading that is clearly the biggest thing here</h1></section><p>small print</p>`),
  // A banner pushed in above the content after load moves everything: a layout shift.
  "/shift": html(
    `<main id="content"><h1>Content that gets pushed down</h1><p>${"Words ".repeat(200)}</p></main>
<script>addEventListener("load", () => setTimeout(() => {
  const b = document.createElement("div"); b.style.height = "300px"; b.textContent = "Late banner";
  document.body.prepend(b);
}, 100));</script>`,
  ),
  // A small hero above the fold and a far bigger lazy image far below it: only a scroll loads
  // the big one, and the capture scrolls after it has read the vitals.
  "/below": html(
    `<img id="top" src="/small.png" width="300" height="150" alt="Top"><div style="height:4000px"></div>
<img id="below" loading="lazy" src="/below.png" width="1200" height="800" alt="Below">`,
  ),
  // Noise, not a flat fill: Chromium does not count low-entropy (placeholder-like) images as LCP.
  "/hero.png": { body: noisyPng(900, 500), type: "image/png" },
  "/small.png": { body: noisyPng(300, 150), type: "image/png" },
  "/below.png": { body: noisyPng(1200, 800, 2), type: "image/png" },
});

describe("vitals gatherer", () => {
  test("names the LCP element and times it after the first paint", async () => {
    const page = await h.open("/hero");
    const v = await callPage(page, "readVitals", { paintWaitMs: 1000 });
    expect(v.lcpElement).toBe("img#hero");
    expect(v.fcpMs).toBeGreaterThan(0);
    expect(v.lcpMs).toBeGreaterThanOrEqual(HERO_DELAY_MS);
    expect(v.lcpMs!).toBeGreaterThanOrEqual(v.fcpMs!);
    expect(v.ttfbMs).toBeGreaterThan(0);
    expect(v.loadMs).toBeGreaterThanOrEqual(v.domContentLoadedMs!);
    expect(v.cls).toBe(0);
  });

  test("a text LCP is named by its tag, classes and nearest ancestors", async () => {
    const v = await callPage(await h.open("/text"), "readVitals", { paintWaitMs: 1000 });
    expect(v.lcpElement).toBe("section.hero.wide>h1.title");
    expect(v.lcpMs).toBe(v.fcpMs);
  });

  test("counts layout shifts", async () => {
    const page = await h.open("/shift");
    // Layout shifts are only in the observer's buffer, not in performance.getEntries().
    await page.evaluate(
      () => new Promise<void>((resolve) => new PerformanceObserver(() => resolve()).observe({ type: "layout-shift", buffered: true })),
    );
    const v = await callPage(page, "readVitals", { paintWaitMs: 1000 });
    expect(v.cls).toBeGreaterThan(0.05);
  });

  describe("through the capture", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "vitals-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const capture = (path: string) =>
      capturePage(
        h.browser,
        { jobId: path, url: h.url(path), viewport: "desktop", screenshotPath: join(dir, `${path.slice(1)}.png`), allowPrivate: true, navigationTimeoutMs: 10_000, totalTimeoutMs: 25_000, maxHeightPx: 8000 },
        () => {},
      );

    test("the extraction carries the LCP element", async () => {
      const { extraction } = await capture("/hero");
      expect(extraction.timing.lcpElement).toBe("img#hero");
      expect(extraction.timing.lcpMs).toBeGreaterThanOrEqual(HERO_DELAY_MS);
    });

    test("vitals are read before the capture scrolls, so content its scroll wakes is not the LCP", async () => {
      const { extraction } = await capture("/below");
      expect(extraction.timing.lcpElement).toBe("img#top");
      // The capture's scroll did load the far bigger image (which would otherwise have been the LCP).
      expect(h.hits("/below.png")).toBe(1);
    });
  });
});
