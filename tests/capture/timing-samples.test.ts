// How several timing loads become the reported figures: medians, spreads, and when to load again.
import { describe, expect, test } from "bun:test";
import type { Vitals } from "#server/modules/capture/page/types";
import { couldMatter, disagree, fitsEarlier, summariseSamples } from "#server/modules/capture/timing-samples";

const v = (fcpMs: number | null, lcpMs: number | null, lcpElement: string | null = "img#hero"): Vitals => ({
  ttfbMs: 40,
  fcpMs,
  lcpMs,
  lcpElement,
  cls: 0.01,
  domContentLoadedMs: 100,
  loadMs: 200,
});

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
      { at, profile: "unthrottled", sample: { ...v(300, 900), domContentLoadedMs: null, loadMs: null } },
      { at, profile: "unthrottled", sample: { ...v(340, 1100), domContentLoadedMs: null, loadMs: null } },
    ]);
    expect(t.samples.map((s) => s.fromRunAt)).toEqual([undefined, at, at]);
    expect(t.lcpMs).toBe(950);
    expect(t.spread.lcpMs).toEqual({ min: 900, max: 1100 });
    // Load and DOMContentLoaded are not kept per sample: those come from this capture's own loads.
    expect(t.loadMs).toBe(200);
    expect(t.spread.loadMs).toEqual({ min: 200, max: 200 });
  });
});
