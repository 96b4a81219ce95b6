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

  test("accessibility budgets read axe-core's audit; a page axe could not audit fails them", () => {
    const r = report();
    const rule = (id: string, count: number) => ({
      id,
      impact: "serious" as const,
      level: "AA" as const,
      criteria: [],
      wcag: "2.0",
      help: "",
      helpUrl: "",
      count,
      examples: [],
    });
    const ours = r.snapshots.filter((s) => s.targetId === "t-Ours");
    for (const s of ours) {
      s.extraction!.accessibility.lowContrast = [
        { text: "Over a photo", ratio: 2, required: 4.5, fg: "#ffffff", bg: "#cccccc", method: "pixels" },
      ];
      s.extraction!.accessibility.audit =
        s.viewport === "desktop"
          ? { engine: "axe-core 4.14.1", ms: 1, violations: [rule("color-contrast", 3), rule("image-alt", 2)], incomplete: [] }
          : { engine: "axe-core", ms: 0, violations: [], incomplete: [], error: "axe-core did not finish in time" };
    }
    const cfg = config({ lowContrast: { max: 3 }, accessibilityViolations: { max: 5 }, imagesWithoutAlt: { max: 2 } }, [
      "desktop",
      "mobile",
    ]);
    expect(evaluateBudgets(cfg, r).map((b) => `${b.budget} ${b.viewport} ${b.value} ${b.pass ? "pass" : "fail"}`)).toEqual([
      // axe's three contrast failures and the painted method's one, never the same element.
      "lowContrast.max desktop 4 fail",
      "lowContrast.max mobile null fail",
      "imagesWithoutAlt.max desktop 2 pass",
      "imagesWithoutAlt.max mobile null fail",
      "accessibilityViolations.max desktop 5 pass",
      "accessibilityViolations.max mobile null fail",
    ]);
  });

  test("a capture axe was not asked to audit (mobile) reads its page's desktop audit; its contrast is its own", () => {
    const r = report();
    const ours = r.snapshots.filter((s) => s.targetId === "t-Ours");
    for (const s of ours) {
      const a = s.extraction!.accessibility;
      a.lowContrast = [{ text: "Over a photo", ratio: 2, required: 4.5, fg: "#ffffff", bg: "#cccccc", method: "pixels" }];
      if (s.viewport === "desktop") {
        a.audit = {
          engine: "axe-core 4.14.1",
          ms: 1,
          violations: [
            {
              id: "image-alt",
              impact: "critical",
              level: "A",
              criteria: ["1.1.1"],
              wcag: "2.0",
              help: "",
              helpUrl: "",
              count: 2,
              examples: [],
            },
            {
              id: "color-contrast",
              impact: "serious",
              level: "AA",
              criteria: ["1.4.3"],
              wcag: "2.0",
              help: "",
              helpUrl: "",
              count: 3,
              examples: [],
            },
          ],
          incomplete: [],
        };
        Object.assign(a, { imagesWithoutAlt: 2, inputsWithoutLabel: 0 });
      } else {
        // The page is audited once, on its desktop capture: this one has no audit and no counts.
        Object.assign(a, { imagesWithoutAlt: null, inputsWithoutLabel: null, audit: undefined });
        a.lowContrast.push({ text: "Grey caption", ratio: 3.1, required: 4.5, fg: "#999999", bg: "#ffffff", method: "css" });
      }
    }
    const cfg = config(
      { lowContrast: { max: 3 }, imagesWithoutAlt: { max: 2 }, inputsWithoutLabel: { max: 0 }, accessibilityViolations: { max: 4 } },
      ["desktop", "mobile"],
    );
    const brief = () => evaluateBudgets(cfg, r).map((b) => `${b.budget} ${b.viewport} ${b.value} ${b.pass ? "pass" : "fail"}`);
    expect(brief()).toEqual([
      "lowContrast.max desktop 4 fail",
      // What CSS and the pixels found in the phone layout, axe's desktop verdicts not added twice.
      "lowContrast.max mobile 2 pass",
      "imagesWithoutAlt.max desktop 2 pass",
      "imagesWithoutAlt.max mobile 2 pass",
      "inputsWithoutLabel.max desktop 0 pass",
      "inputsWithoutLabel.max mobile 0 pass",
      "accessibilityViolations.max desktop 5 fail",
      "accessibilityViolations.max mobile 5 fail",
    ]);
    // Without an audited desktop capture the page's audit is not measured.
    r.snapshots = r.snapshots.filter((s) => !(s.targetId === "t-Ours" && s.viewport === "desktop"));
    expect(brief().filter((l) => l.includes("mobile") && !l.startsWith("lowContrast"))).toEqual([
      "imagesWithoutAlt.max mobile null fail",
      "inputsWithoutLabel.max mobile null fail",
      "accessibilityViolations.max mobile null fail",
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
      if (s.viewport === "desktop") Object.assign(s.extraction!.timing, { speedIndexMs: 1800, tbtMs: 120 });
      else Object.assign(s.extraction!.timing, { speedIndexMs: null });
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
