// axe-core's raw results → the stored audit: one entry per failed rule with its element count, the
// WCAG level and criteria read from its tags, and trimmed examples with their selectors.
import { describe, expect, test } from "bun:test";
import { failing, summariseAxe, wcagOf, type AxeRuleLike } from "#server/modules/capture/gatherers/axe-results";

const node = (selector: unknown[], html: string, any: AxeRuleLike["nodes"][number]["any"] = []) => ({ target: selector, html, any });

const results = {
  violations: [
    {
      id: "region",
      impact: "moderate",
      tags: ["cat.keyboard", "best-practice"],
      help: "All page content should be contained by landmarks",
      helpUrl: "https://dequeuniversity.com/rules/axe/4.14/region",
      nodes: [node(["div.intro"], "<div class='intro'>")],
    },
    {
      id: "image-alt",
      impact: "critical",
      tags: ["cat.text-alternatives", "wcag2a", "wcag111", "section508", "EN-9.1.1.1"],
      help: "Images must have alternative text",
      helpUrl: "https://dequeuniversity.com/rules/axe/4.14/image-alt",
      nodes: [
        node(["#hero"], `<img id="hero"\n   src="${"/very/long/path/".repeat(20)}hero.jpg">`),
        node(["section > img:nth-child(2)"], "<img src=a.png>"),
        node([["my-card", "img.avatar"]], "<img class=avatar>"),
        node(["footer img"], "<img src=logo.svg>"),
      ],
    },
    {
      id: "color-contrast",
      impact: "serious",
      tags: ["cat.color", "wcag2aa", "wcag143", "TTv5"],
      help: "Elements must meet minimum color contrast ratio thresholds",
      helpUrl: "https://dequeuniversity.com/rules/axe/4.14/color-contrast",
      nodes: [
        node(["p.muted"], "<p class=muted>Small print</p>", [
          { id: "color-contrast", data: { fgColor: "#999999", bgColor: "#ffffff", contrastRatio: 2.847, expectedContrastRatio: "4.5:1" } },
        ]),
      ],
    },
    { id: "empty-rule", impact: "minor", tags: ["wcag2a"], help: "", helpUrl: "", nodes: [] },
  ],
  incomplete: [
    {
      id: "color-contrast",
      impact: "serious",
      tags: ["wcag2aa"],
      help: "",
      helpUrl: "",
      nodes: [node(["h1"], "<h1>"), node(["h2"], "<h2>")],
    },
  ],
};

describe("axe results → audit", () => {
  test("grouped by rule with counts, most severe first; rules with no elements dropped", () => {
    const audit = summariseAxe(results, 123.4, "4.14.1");
    expect(audit.engine).toBe("axe-core 4.14.1");
    expect(audit.ms).toBe(123);
    expect(audit.violations.map((r) => [r.id, r.count])).toEqual([
      ["image-alt", 4],
      ["color-contrast", 1],
      ["region", 1],
    ]);
    expect(audit.incomplete).toEqual([{ id: "color-contrast", count: 2 }]);
  });

  test("WCAG level, criteria and version from the tags; axe's own best practices apart", () => {
    const [alt, contrast, region] = summariseAxe(results, 1, "4.14.1").violations;
    expect(alt).toMatchObject({ level: "A", criteria: ["1.1.1"], wcag: "2.0", impact: "critical" });
    expect(contrast).toMatchObject({ level: "AA", criteria: ["1.4.3"], wcag: "2.0" });
    expect(region).toMatchObject({ level: "best-practice", criteria: [], wcag: null });
    expect(wcagOf(["wcag21aa", "wcag1410"])).toEqual({ level: "AA", criteria: ["1.4.10"], wcag: "2.1" });
    expect(wcagOf(["wcag22aa", "wcag258"])).toEqual({ level: "AA", criteria: ["2.5.8"], wcag: "2.2" });
    expect(wcagOf(["wcag2aaa", "wcag146"])).toMatchObject({ level: "AAA" });
    // Tagged for A and AA: the lowest level binds.
    expect(wcagOf(["wcag2aa", "wcag21a"]).level).toBe("A");
  });

  test("up to three examples: HTML flattened and trimmed, the selector joined through shadow roots", () => {
    const [alt] = summariseAxe(results, 1, "4.14.1").violations;
    expect(alt!.examples).toHaveLength(3);
    expect(alt!.examples[0]!.selector).toBe("#hero");
    expect(alt!.examples[0]!.html.length).toBeLessThanOrEqual(160);
    expect(alt!.examples[0]!.html).toStartWith('<img id="hero" src="/very/long');
    expect(alt!.examples[0]!.html).toEndWith("…");
    expect(alt!.examples[2]!.selector).toBe("my-card >>> img.avatar");
  });

  test("a contrast example carries the colours and ratio axe measured", () => {
    const contrast = summariseAxe(results, 1, "4.14.1").violations.find((r) => r.id === "color-contrast")!;
    expect(contrast.examples[0]).toEqual({
      html: "<p class=muted>Small print</p>",
      selector: "p.muted",
      contrast: { fg: "#999999", bg: "#ffffff", ratio: 2.85, required: 4.5 },
    });
  });

  test("the counts budgets read: elements failing the named rules", () => {
    const audit = summariseAxe(results, 1, "4.14.1");
    expect(failing(audit, ["image-alt"])).toBe(4);
    expect(failing(audit, ["label", "select-name"])).toBe(0);
  });
});
