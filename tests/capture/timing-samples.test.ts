// How several timing loads become the reported figures: medians, spreads, and when to load again.
import { describe, expect, test } from "bun:test";
import type { Vitals } from "#server/modules/capture/page/types";
import { labelOf } from "#server/modules/capture/browser/browser-label";
import {
  couldMatter,
  disagree,
  type EarlierSample,
  fitsEarlier,
  sampleTiming,
  summariseSamples,
} from "#server/modules/capture/timing/timing-samples";

const v = (fcpMs: number | null, lcpMs: number | null, lcpElement: string | null = "img#hero"): Vitals => ({
  ttfbMs: 40,
  fcpMs,
  lcpMs,
  lcpElement,
  cls: 0.01,
  domContentLoadedMs: 100,
  loadMs: 200,
});

const SHELL = "Chromium headless shell 156.0.8078.79";

describe("timing samples", () => {
  test("each metric is the median of the loads that measured it, with its min..max", () => {
    const t = summariseSamples([v(184, 900), v(724, 1300, "h1"), v(300, 1000)], "unthrottled");
    expect(t.fcpMs).toBe(300);
    expect(t.lcpMs).toBe(1000);
    expect(t.spread.fcpMs).toEqual({ min: 184, max: 724 });
    expect(t.spread.lcpMs).toEqual({ min: 900, max: 1300 });
    expect(t.samples).toHaveLength(3);
    expect(t.profile).toBe("unthrottled");
    // The element of the sample whose LCP is the median.
    expect(t.lcpElement).toBe("img#hero");
  });

  test("a metric no load measured is null, never 0", () => {
    const t = summariseSamples([v(null, null, null), v(null, null, null)], "lighthouse-mobile");
    expect(t.fcpMs).toBeNull();
    expect(t.spread.lcpMs).toBeNull();
    expect(t.lcpElement).toBeNull();
    expect(summariseSamples([], "lighthouse-mobile").samples).toEqual([]);
  });

  test("an even number of samples takes the mean of the middle two", () => {
    expect(summariseSamples([v(100, 400), v(200, 600)], "unthrottled").lcpMs).toBe(500);
  });

  test("a third load only when the first two disagree", () => {
    expect(disagree([v(300, 900)])).toBe(false);
    expect(disagree([v(300, 900), v(320, 950)])).toBe(false);
    expect(disagree([v(184, 900), v(724, 950)])).toBe(true);
    // Small absolute gaps on fast pages are not disagreement (20 ms vs 40 ms).
    expect(disagree([v(20, 20), v(40, 40)])).toBe(false);
  });

  test("more loads only where a timing finding about the page is possible", () => {
    expect(couldMatter([v(120, 300)])).toBe(false);
    expect(couldMatter([v(120, 650)])).toBe(true); // LCP past the 500 ms gap an LCP finding needs
    expect(couldMatter([v(450, 450)])).toBe(true); // FCP past the 400 ms gap an FCP finding needs
    expect(couldMatter([v(null, null)])).toBe(true); // nothing measured: try again
  });

  test("earlier captures' samples stand in only for a load in line with them", () => {
    const earlier = [v(300, 900), v(340, 1000)];
    expect(fitsEarlier([v(320, 950)], earlier)).toBe(true);
    // Within the margin two loads may differ by (25 %, at least 50 ms) of the earlier range.
    expect(fitsEarlier([v(400, 1200)], earlier)).toBe(true);
    // Out of line: the page (or its host) changed, so it gets loads of its own.
    expect(fitsEarlier([v(320, 1400)], earlier)).toBe(false);
    expect(fitsEarlier([v(150, 950)], earlier)).toBe(false);
    // A paint one side measured and the other did not.
    expect(fitsEarlier([v(320, null)], earlier)).toBe(false);
    expect(fitsEarlier([v(320, 950)], [])).toBe(false);
    expect(fitsEarlier([], earlier)).toBe(false);
  });

  test("samples from earlier captures count in the medians and spread, marked with their time", () => {
    const at = "2030-01-01T10:00:00.000Z";
    const t = summariseSamples([v(320, 950)], "unthrottled", [
      { at, profile: "unthrottled", browser: SHELL, sample: { ...v(300, 900), domContentLoadedMs: null, loadMs: null } },
      { at, profile: "unthrottled", browser: SHELL, sample: { ...v(340, 1100), domContentLoadedMs: null, loadMs: null } },
    ]);
    expect(t.samples.map((s) => s.fromRunAt)).toEqual([undefined, at, at]);
    expect(t.lcpMs).toBe(950);
    expect(t.spread.lcpMs).toEqual({ min: 900, max: 1100 });
    // Load and DOMContentLoaded are not kept per sample: those come from this capture's own loads.
    expect(t.loadMs).toBe(200);
    expect(t.spread.loadMs).toEqual({ min: 200, max: 200 });
  });

  test("earlier samples stand in only when the same browser measured them", async () => {
    const at = "2030-01-01T10:00:00.000Z";
    const earlier = (browser: string | null): EarlierSample[] =>
      [v(300, 900), v(340, 1000)].map((x) => ({
        at,
        profile: "unthrottled",
        browser,
        sample: { ...x, domContentLoadedMs: null, loadMs: null },
      }));
    let opened = 0;
    // Counts the light loads asked for; each fails at once, so sampling ends with what it has.
    const open = () => {
      opened++;
      return Promise.reject(new Error("no browser in a unit test"));
    };
    const plan = (browser: string | null) => ({
      profile: "unthrottled" as const,
      own: [v(320, 950)],
      earlier: earlier(browser),
      browser: SHELL,
      max: 3,
      matters: () => true,
      budget: () => 1500,
      paintWaitMs: 0,
    });
    const same = await sampleTiming(open, "http://127.0.0.1/", plan(SHELL));
    expect(opened).toBe(0);
    expect(same.samples.map((s) => s.fromRunAt)).toEqual([undefined, at, at]);
    for (const other of ["Chromium 156.0.8078.79 (desktop build)", null]) {
      opened = 0;
      const t = await sampleTiming(open, "http://127.0.0.1/", plan(other));
      expect(opened).toBe(1);
      expect(t.samples.map((s) => s.fromRunAt)).toEqual([undefined]);
    }
  });
});

describe("browser label", () => {
  test("the headless shell and the desktop build are told apart by the name Chromium gives itself", () => {
    expect(labelOf("HeadlessChrome/156.0.8078.79", "156.0.8078.79")).toBe(SHELL);
    expect(labelOf("Chrome/156.0.8078.79", "156.0.8078.79")).toBe("Chromium 156.0.8078.79 (desktop build)");
    // Anything else is named by its version alone, not guessed.
    expect(labelOf("Firefox/140.0", "156.0.8078.79")).toBe("Chromium 156.0.8078.79");
    expect(labelOf("", "156.0.8078.79")).toBe("Chromium 156.0.8078.79");
  });
});
