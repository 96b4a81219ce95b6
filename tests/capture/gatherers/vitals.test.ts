// The vitals gatherer in real Chromium: web-vitals' FCP, LCP (with the element named) and CLS, read
// the way the capture reads them, and through the capture itself.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium, isHeadlessShell } from "#server/lib/chromium";
import { browserLabel } from "#server/modules/capture/browser/browser-label";
import { capturePage } from "#server/modules/capture/capture";
import type { Vitals } from "#server/modules/capture/page/types";
import { timePage } from "#server/modules/capture/timing/time-page";
import { callPage } from "#server/modules/capture/page-script/page-script";
import { LIGHTHOUSE_MOBILE } from "#server/modules/capture/timing/timing-samples";
import type { CaptureJob } from "#server/modules/capture/worker/protocol";
import { html, noisyPng, useHarness } from "./harness";

const HERO_DELAY_MS = 300;
const SLOW_HERO_DELAY_MS = 700;

const h = useHarness({
  // Small text first, then a big image that arrives later: the image is the largest paint.
  "/hero": html(`<p>Loading the hero…</p><img id="hero" src="/hero.png?delay=${HERO_DELAY_MS}" width="900" height="500" alt="Hero">`),
  // Text only: the heading is the largest paint, named by its classes and its ancestors'.
  "/text": html(
    `<section class="hero wide"><h1 class="title">A heading that is clearly the biggest thing here</h1></section><p>small print</p>`,
  ),
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
  // A hero photo painted as a CSS background that arrives after the heading: Chromium counts it as
  // the LCP once decoded, and a reading taken at the first paint would miss it.
  "/bghero": html(
    `<header id="masthead" style="height:700px;background:#333 url(/bg.png?delay=${HERO_DELAY_MS}) center/cover"><h1 style="color:#fff;margin:0">Hi</h1></header>`,
  ),
  // The same, slow enough (LCP past any gap a timing finding needs) that its timing is sampled again.
  "/slowhero": html(
    `<p>Loading the hero…</p><img id="hero" src="/hero.png?delay=${SLOW_HERO_DELAY_MS}" width="900" height="500" alt="Hero">`,
  ),
  // Text at once, a hero later, and a 250 ms task once the first contentful paint is known (so
  // after FCP even where the paint is presented late): blocking time, and a load that looks
  // complete only once the hero has painted.
  "/blocking": html(
    `<h1>Quick text</h1><img id="hero" src="/hero.png?delay=${HERO_DELAY_MS}" width="900" height="500" alt="Hero">
<script>new PerformanceObserver((list) => {
  if (list.getEntriesByName("first-contentful-paint").length) setTimeout(() => { const t = performance.now(); while (performance.now() - t < 250); }, 20);
}).observe({ type: "paint", buffered: true });</script>`,
  ),
  // A render-blocking stylesheet: the first paint waits for its request.
  "/styled": html(`<h1>Styled</h1>`, `<link rel="stylesheet" href="/s.css">`),
  "/s.css": { body: "h1{color:#123456}", type: "text/css" },
  "/bg.png": { body: noisyPng(1440, 700, 3), type: "image/png" },
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

  test("a hero painted as a CSS background image is waited for and named as the LCP", async () => {
    const v = await callPage(await h.open("/bghero"), "readVitals", { paintWaitMs: 2000 });
    expect(v.lcpElement).toBe("header#masthead");
    expect(v.lcpMs).toBeGreaterThanOrEqual(HERO_DELAY_MS);
    expect(v.lcpMs!).toBeGreaterThan(v.fcpMs!);
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

    const capture = (path: string, extra: Partial<CaptureJob> = {}) =>
      capturePage(
        h.browser,
        {
          jobId: path,
          url: h.url(path),
          viewport: "desktop",
          screenshotPath: join(dir, `${path.slice(1)}.png`),
          allowPrivate: true,
          navigationTimeoutMs: 10_000,
          totalTimeoutMs: 60_000,
          maxHeightPx: 8000,
          ...extra,
        },
        () => {},
      );

    // One load where the subject is what a load reads, not how many are taken (the tests below).
    test("the extraction carries the LCP element", async () => {
      const { extraction } = await capture("/hero", { timingSamples: 1 });
      expect(extraction.timing.lcpElement).toBe("img#hero");
      expect(extraction.timing.lcpMs).toBeGreaterThanOrEqual(HERO_DELAY_MS);
      // And the browser that measured it, by the build this test launched.
      const shell = isHeadlessShell(findChromium(process.env.CHROMIUM_PATH)!);
      expect(extraction.timing.browser).toMatch(shell ? /^Chromium headless shell \d+\./ : /^Chromium \d+\.[\d.]+ \(desktop build\)$/);
      expect(extraction.timing.browser).toBe(await browserLabel(h.browser));
    });

    test("Speed Index and visually complete from the load's filmstrip, TBT from its long tasks after FCP, each with its method", async () => {
      const { extraction } = await capture("/blocking", { timingSamples: 1 });
      const t = extraction.timing;
      // The text paints first, the hero after its delay: complete no sooner than the hero, SI in between.
      expect(t.visuallyCompleteMs).toBeGreaterThanOrEqual(HERO_DELAY_MS);
      expect(t.speedIndexMs).toBeGreaterThan(0);
      expect(t.speedIndexMs!).toBeLessThanOrEqual(t.visuallyCompleteMs!);
      expect(t.measuredBy!.speedIndex.method).toContain("trace screenshots");
      expect(t.measuredBy!.speedIndex.reason).toBeNull();
      // The 250 ms task blocks for 200 ms beyond the 50 ms allowance (a busy machine adds tasks of its own).
      expect(t.tbtMs).toBeGreaterThanOrEqual(190);
      expect(t.measuredBy!.tbt.method).toContain(`from FCP (${t.fcpMs} ms)`);
    });

    test("vitals are read before the capture scrolls, so content its scroll wakes is not the LCP", async () => {
      const { extraction } = await capture("/below", { timingSamples: 1 });
      expect(extraction.timing.lcpElement).toBe("img#top");
      // The capture's scroll did load the far bigger image (which would otherwise have been the LCP).
      expect(h.hits("/below.png")).toBe(1);
    });

    test("timing is the median of more than one load, with each metric's spread", async () => {
      const before = h.hits("/hero.png");
      const { extraction } = await capture("/slowhero");
      const t = extraction.timing;
      expect(t.profile).toBe("unthrottled");
      expect(t.samples!.length).toBeGreaterThanOrEqual(2);
      expect(t.samples!.length).toBeLessThanOrEqual(3);
      // Each extra sample is a real load of the page (a fresh context: nothing cached).
      expect(h.hits("/hero.png") - before).toBe(t.samples!.length);
      for (const s of t.samples!) expect(s.lcpElement).toBe("img#hero");
      const lcps = t.samples!.map((s) => s.lcpMs!);
      expect(t.spread!.lcpMs).toEqual({ min: Math.min(...lcps), max: Math.max(...lcps) });
      expect(t.lcpMs!).toBeGreaterThanOrEqual(t.spread!.lcpMs!.min);
      expect(t.lcpMs!).toBeLessThanOrEqual(t.spread!.lcpMs!.max);
    });

    const earlierSample = (ms: number, browser: string | null) => ({
      at: "2030-01-01T10:00:00.000Z",
      profile: "unthrottled" as const,
      browser,
      sample: { ttfbMs: 5, fcpMs: ms, lcpMs: ms, cls: 0, lcpElement: "img#hero", domContentLoadedMs: null, loadMs: null },
    });

    test("recent captures' samples in line with this load stand in for the extra loads, marked as such", async () => {
      const before = h.hits("/hero.png");
      // A range this wide takes in whatever this load measures, however busy the machine.
      const browser = await browserLabel(h.browser);
      const { extraction } = await capture("/slowhero", { earlierSamples: [earlierSample(1, browser), earlierSample(60_000, browser)] });
      const t = extraction.timing;
      expect(h.hits("/hero.png") - before).toBe(1); // the capture's own load only
      expect(t.samples!.map((x) => x.fromRunAt ?? null)).toEqual([null, "2030-01-01T10:00:00.000Z", "2030-01-01T10:00:00.000Z"]);
      expect(t.spread!.lcpMs).toEqual({ min: 1, max: 60_000 });
      expect(t.lcpMs).toBe(t.samples![0]!.lcpMs);
      // Load and DOMContentLoaded are this load's alone.
      expect(t.spread!.loadMs!.min).toBe(t.spread!.loadMs!.max);
    });

    test("a load out of line with recent captures' samples gets loads of its own", async () => {
      const before = h.hits("/hero.png");
      const browser = await browserLabel(h.browser);
      const { extraction } = await capture("/slowhero", {
        earlierSamples: [earlierSample(100_000, browser), earlierSample(100_000, browser)],
      });
      const t = extraction.timing;
      expect(t.samples!.length).toBeGreaterThanOrEqual(2);
      expect(h.hits("/hero.png") - before).toBe(t.samples!.length);
      expect(t.samples!.every((x) => x.fromRunAt === undefined)).toBe(true);
    });

    test("samples another browser measured never stand in, however well they fit", async () => {
      const before = h.hits("/hero.png");
      const other = (await browserLabel(h.browser)).includes("headless shell")
        ? "Chromium 1.0 (desktop build)"
        : "Chromium headless shell 1.0";
      const { extraction } = await capture("/slowhero", { earlierSamples: [earlierSample(1, other), earlierSample(60_000, other)] });
      const t = extraction.timing;
      expect(t.samples!.length).toBeGreaterThanOrEqual(2);
      expect(h.hits("/hero.png") - before).toBe(t.samples!.length);
      expect(t.samples!.every((x) => x.fromRunAt === undefined)).toBe(true);
    });

    test("a page too fast to be the slow one in any timing finding is loaded once", async () => {
      const { extraction } = await capture("/text");
      const [first] = extraction.timing.samples!;
      // On a busy machine even this page can paint late; then it is sampled again, as a slow page is.
      if (first!.lcpMs! < 500 && first!.fcpMs! < 400) expect(extraction.timing.samples).toHaveLength(1);
      else expect(extraction.timing.samples!.length).toBeGreaterThanOrEqual(2);
    });

    test("one sample when asked for one", async () => {
      const { extraction } = await capture("/text", { timingSamples: 1 });
      expect(extraction.timing.samples).toHaveLength(1);
      expect(extraction.timing.spread!.fcpMs!.min).toBe(extraction.timing.spread!.fcpMs!.max);
    });

    test("the mobile viewport can be timed under Lighthouse's mobile preset, labelled so", async () => {
      const { extraction } = await capture("/styled", { viewport: "mobile", mobileTimingProfile: "lighthouse-mobile", timingSamples: 2 });
      const t = extraction.timing;
      expect(t.profile).toBe("lighthouse-mobile");
      expect(t.samples!.length).toBeGreaterThanOrEqual(1);
      // The stylesheet's request waits the preset's latency, and the first paint waits for it.
      for (const s of t.samples!) expect(s.fcpMs!).toBeGreaterThanOrEqual(LIGHTHOUSE_MOBILE.latencyMs);
    });

    test("a deferred capture times its own load only; the run's timing job adds real loads of the page", async () => {
      const before = h.hits("/hero.png");
      const { extraction } = await capture("/slowhero", { deferTiming: true });
      // A page slow enough for a finding would take more loads in the capture; deferred, it takes none.
      expect(extraction.timing.samples).toHaveLength(1);
      expect(h.hits("/hero.png") - before).toBe(1);
      const own: Vitals = { ...extraction.timing, lcpElement: extraction.timing.lcpElement ?? null };
      const t = await timePage(h.browser, {
        jobId: "t1",
        url: extraction.finalUrl,
        viewport: "desktop",
        allowPrivate: true,
        profile: "unthrottled",
        own: [own],
        earlier: [],
        max: 3,
        totalTimeoutMs: 60_000,
      });
      expect(t.samples.length).toBeGreaterThanOrEqual(2);
      expect(t.samples[0]!.lcpMs).toBe(extraction.timing.lcpMs);
      expect(h.hits("/hero.png") - before).toBe(t.samples.length);
      for (const s of t.samples) expect(s.lcpElement).toBe("img#hero");
      expect(t.spread.lcpMs!.min).toBeLessThanOrEqual(t.spread.lcpMs!.max);
    });

    test("the desktop viewport is never throttled", async () => {
      const { extraction } = await capture("/text", { mobileTimingProfile: "lighthouse-mobile", timingSamples: 1 });
      expect(extraction.timing.profile).toBe("unthrottled");
    });
  });
});
