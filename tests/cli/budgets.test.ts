import { describe, expect, test } from "bun:test";
import { evaluateBudgets } from "#server/cli/check/budgets";
import { parseConfig } from "#server/cli/check/config";
import type { Extraction, Viewport } from "#server/modules/capture/model";
import type { ComparisonReport } from "#server/modules/comparisons/model";
import { fakeExtraction } from "#tests/api/comparisons-support";

function page(
  label: string,
  viewport: Viewport,
  over: { lcpMs?: number | null; bodyContrast?: number | null; imagesWithoutAlt?: number },
): Extraction {
  const e = fakeExtraction(`http://127.0.0.1:9/${label}`, viewport, label, "#336699");
  // Ours lost two requests on desktop; its mobile capture predates the record (no `network`).
  if (label === "Ours") e.network = viewport === "desktop" ? { failed: [], failedCount: 2 } : undefined;
  if (over.lcpMs !== undefined) e.timing.lcpMs = over.lcpMs;
  if (over.bodyContrast !== undefined) e.accessibility.bodyContrast = over.bodyContrast;
  if (over.imagesWithoutAlt !== undefined) e.accessibility.imagesWithoutAlt = over.imagesWithoutAlt;
  return e;
}

/** Ours: LCP 1500 ms, contrast 4.5; Fast: 1000 ms, contrast 7; Slow: 3000 ms, contrast 3 (desktop). */
function report(): ComparisonReport {
  const targets = ["Ours", "Fast", "Slow"].map((label) => ({
    id: `t-${label}`,
    comparisonId: "c",
    label,
    url: `http://127.0.0.1:9/${label}`,
    status: "completed" as const,
    error: null,
    createdAt: "",
  }));
  const values: Record<string, { lcpMs: number | null; bodyContrast: number; imagesWithoutAlt: number }> = {
    Ours: { lcpMs: 1500, bodyContrast: 4.5, imagesWithoutAlt: 2 },
    Fast: { lcpMs: 1000, bodyContrast: 7, imagesWithoutAlt: 0 },
    Slow: { lcpMs: 3000, bodyContrast: 3, imagesWithoutAlt: 9 },
  };
  const snapshots = targets.flatMap((t) =>
    (["desktop", "mobile"] as const).map((viewport) => ({
      id: `s-${t.label}-${viewport}`,
      targetId: t.id,
      capturedAt: "",
      viewport,
      screenshotUrl: "",
      title: t.label,
      colors: [],
      width: 1,
      height: 1,
      consent: null,
      // Mobile LCP is not reported for Ours: a budget on it must fail, not pass unseen.
      extraction: page(t.label, viewport, {
        ...values[t.label]!,
        lcpMs: viewport === "mobile" && t.label === "Ours" ? null : values[t.label]!.lcpMs,
      }),
    })),
  );
  const diff = (b: string, overallSimilarity: number) => ({
    id: `d-${b}`,
    comparisonId: "c",
    viewport: "desktop" as const,
    targetAId: "t-Ours",
    targetBId: `t-${b}`,
    createdAt: "",
    colorSimilarity: 0,
    layoutSimilarity: 0,
    contentSimilarity: 0,
    overallSimilarity,
    components: {},
  });
  return {
    exportedAt: "",
    comparison: {} as ComparisonReport["comparison"],
    targets,
    snapshots,
    diffs: [diff("Fast", 0.8123), diff("Slow", 0.31)],
    findings: [],
  };
}

const config = (budgets: unknown, viewports: Viewport[] = ["desktop"]) =>
  parseConfig(
    JSON.stringify({
      site: { url: "http://127.0.0.1:9/Ours", label: "Ours" },
      competitors: [
        { url: "http://127.0.0.1:9/Fast", label: "Fast" },
        { url: "http://127.0.0.1:9/Slow", label: "Slow" },
      ],
      viewports,
      budgets,
    }),
    "test.json",
  );

const brief = (budgets: unknown, viewports?: Viewport[]) =>
  evaluateBudgets(config(budgets, viewports), report()).map((r) => `${r.budget} ${r.viewport} ${r.value} ${r.pass ? "pass" : "fail"}`);

describe("budgets", () => {
  test("absolute budgets on the site's own capture; an unreported measure fails", () => {
    expect(brief({ lcpMs: { max: 1500 }, imagesWithoutAlt: { max: 1 } }, ["desktop", "mobile"])).toEqual([
      "lcpMs.max desktop 1500 pass",
      "lcpMs.max mobile null fail",
      "imagesWithoutAlt.max desktop 2 fail",
      "imagesWithoutAlt.max mobile 2 fail",
    ]);
  });

  test("failedRequests counts every failed request; a capture without the record fails the budget", () => {
    expect(brief({ failedRequests: { max: 2 } }, ["desktop", "mobile"])).toEqual([
      "failedRequests.max desktop 2 pass",
      "failedRequests.max mobile null fail",
    ]);
    expect(brief({ failedRequests: { max: 1 } })).toEqual(["failedRequests.max desktop 2 fail"]);
  });

  test("speedIndex and tbt budgets on the site's own load, in ms; a capture that did not measure them fails", () => {
    const r = report();
    for (const s of r.snapshots) {
      if (s.targetId !== "t-Ours") continue;
      // Desktop measured both; the mobile capture was timed under another profile (null) or predates them (absent).
      if (s.viewport === "desktop") Object.assign(s.extraction.timing, { speedIndexMs: 1800, tbtMs: 120 });
      else Object.assign(s.extraction.timing, { speedIndexMs: null });
    }
    const results = evaluateBudgets(config({ speedIndex: { max: 2000 }, tbt: { max: 100 } }, ["desktop", "mobile"]), r);
    expect(results.map((x) => `${x.budget} ${x.viewport} ${x.value} ${x.pass ? "pass" : "fail"}`)).toEqual([
      "speedIndex.max desktop 1800 pass",
      "speedIndex.max mobile null fail",
      "tbt.max desktop 120 fail",
      "tbt.max mobile null fail",
    ]);
    expect(() => config({ speedIndex: { max: "fast" } })).toThrow("test.json: budgets.speedIndex.max: expected a number");
  });

  test("ranks among the set (1 = best) and the ratio to the fastest competitor", () => {
    expect(brief({ rank: { lcpMs: { max: 1 }, bodyContrast: { max: 2 } }, lcpMs: { maxVsBestCompetitor: 1.4 } })).toEqual([
      "rank.lcpMs.max desktop 2 fail",
      "rank.bodyContrast.max desktop 2 pass",
      "lcpMs.maxVsBestCompetitor desktop 1.5 fail",
    ]);
  });

  test("similarity to a competitor by label, as a ceiling or a floor", () => {
    expect(brief({ similarity: { Fast: { max: 0.8 }, Slow: { min: 0.3, max: 0.5 } } })).toEqual([
      "similarity.Fast.max desktop 0.812 fail",
      "similarity.Slow.max desktop 0.31 pass",
      "similarity.Slow.min desktop 0.31 pass",
    ]);
  });

  test("relative budgets name what is wrong in the config", () => {
    expect(() => config({ similarity: { Nobody: { max: 0.5 } } })).toThrow(
      'test.json: budgets.similarity.Nobody: no competitor is labelled "Nobody"',
    );
    expect(() => config({ similarity: { Fast: {} } })).toThrow("test.json: budgets.similarity.Fast: expected max or min");
    expect(() => config({ rank: { lcpMs: { max: 1.5 } } })).toThrow("test.json: budgets.rank.lcpMs.max: expected a whole number");
    expect(() =>
      parseConfig(JSON.stringify({ site: { url: "http://127.0.0.1:9/", label: "A" }, budgets: { rank: { lcpMs: { max: 1 } } } }), "x.json"),
    ).toThrow("x.json: competitors: expected a list of { url, label }");
  });
});
