// Which pages of one viewport, timed once, could be in a timing finding with more loads.
import { describe, expect, test } from "bun:test";
import { timingFindingReach } from "#server/modules/analysis/public";

const t = (fcpMs: number | null, lcpMs: number | null) => ({ fcpMs, lcpMs });

describe("timing finding reach", () => {
  test("pages close together, all fast, need no more loads", () => {
    expect(timingFindingReach([t(300, 400), t(320, 450), t(280, 520)])).toEqual([false, false, false]);
  });

  test("a slow page and every page it could be measured against are in reach", () => {
    // 1 400 ms against 400 ms LCP: a finding once loads confirm it.
    expect(timingFindingReach([t(300, 400), t(320, 1400)])).toEqual([true, true]);
    // The gap a finding needs (500 ms LCP) is reachable within one load's noise: 840 vs 400.
    expect(timingFindingReach([t(300, 400), t(300, 840)])).toEqual([true, true]);
  });

  test("FCP alone can put a pair in reach", () => {
    expect(timingFindingReach([t(200, 400), t(900, 950)])).toEqual([true, true]);
  });

  test("a page near a poor threshold is in reach on its own; one with no LCP is loaded again", () => {
    expect(timingFindingReach([t(300, 2100)])).toEqual([true]);
    expect(timingFindingReach([t(300, 1900)])).toEqual([false]);
    expect(timingFindingReach([t(300, null), t(300, 420)])).toEqual([true, false]);
  });
});
