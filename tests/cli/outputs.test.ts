// The Markdown `check --markdown` writes for a pull-request comment, when budgets fail: the
// verdict first, every failing budget with its value and limit, a missing measurement shown as
// such, the visual diff's note, and labels that cannot break the table.
import { describe, expect, test } from "bun:test";
import { type CheckSummary, renderMarkdown } from "#server/cli/check/outputs";

const failing: CheckSummary = {
  site: { label: "Shop_[beta]", url: "http://127.0.0.1:9/shop" },
  competitors: [
    { label: "Rival|One", url: "http://127.0.0.1:9/rival" },
    { label: "Two", url: "http://127.0.0.1:9/two" },
  ],
  results: [
    { budget: "lcpMs.max", viewport: "desktop", value: 2400, limit: 2000, bound: "max", pass: false },
    { budget: "cls.max", viewport: "desktop", value: 0.02, limit: 0.1, bound: "max", pass: true },
    { budget: "lcpMs.max", viewport: "mobile", value: null, limit: 2000, bound: "max", pass: false },
    { budget: "similarity.Rival|One.max", viewport: "desktop", value: 0.91, limit: 0.8, bound: "max", pass: false },
    { budget: "visual.maxChangedShare", viewport: "desktop", value: 0.125, limit: 0.05, bound: "max", pass: false },
  ],
  visual: [
    {
      viewport: "desktop",
      changedShare: 0.125,
      regions: [
        { x: 0, y: 0, width: 1280, height: 120 },
        { x: 40, y: 600, width: 300, height: 80 },
      ],
      masked: 1,
      baseline: ".design-intel/baseline/desktop.png",
      current: ".design-intel/results/desktop.png",
      diff: ".design-intel/results/desktop.diff.png",
      baselineWritten: false,
    },
  ],
  durationMs: 8200,
};

describe("check --markdown when budgets fail", () => {
  test("says how many failed, lists each with value and limit, and points at the diff image", () => {
    expect(renderMarkdown(failing)).toBe(
      [
        "### ❌ Design Intel: 4 of 5 budgets failed",
        "",
        "Site: **Shop\\_\\[beta\\]** (http://127.0.0.1:9/shop) · competitors: Rival\\|One, Two",
        "",
        "| Budget | Viewport | Value | Limit | Result |",
        "| --- | --- | --- | --- | --- |",
        "| lcpMs.max | desktop | 2400 | 2000 | ❌ fail |",
        "| cls.max | desktop | 0.02 | 0.1 | ✅ pass |",
        "| lcpMs.max | mobile | not measured | 2000 | ❌ fail |",
        "| similarity.Rival\\|One.max | desktop | 0.91 | 0.8 | ❌ fail |",
        "| visual.maxChangedShare | desktop | 0.125 | 0.05 | ❌ fail |",
        "",
        "- visual (desktop): 13 % changed in 2 regions, 1 masked; diff image .design-intel/results/desktop.diff.png",
        "",
      ].join("\n"),
    );
  });

  test("every table row keeps its five cells, whatever the labels hold", () => {
    const rows = renderMarkdown(failing)
      .split("\n")
      .filter((l) => l.startsWith("| "));
    expect(rows).toHaveLength(2 + failing.results.length);
    // A pipe a label brings is escaped; the unescaped ones are the table's own.
    for (const row of rows) expect(row.match(/(?<!\\)\|/g)).toHaveLength(6);
  });

  test("a single failure among passes still heads the comment as a failure", () => {
    const one: CheckSummary = { ...failing, results: failing.results.slice(0, 2), visual: [] };
    const md = renderMarkdown(one);
    expect(md.split("\n")[0]).toBe("### ❌ Design Intel: 1 of 2 budgets failed");
    expect(md).not.toContain("budgets hold");
    expect(md).not.toContain("visual (");
  });
});
