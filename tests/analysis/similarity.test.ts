import { describe, expect, test } from "bun:test";
import { decodePng, downscaleGray, ssimGray } from "#server/lib/image/image";
import { editSimilarity, regionProfile, structureSimilarity } from "#server/modules/analysis/layout";
import { BLEND, scorePair } from "#server/modules/analysis/similarity";
import { headlineSimilarity, textSimilarity } from "#server/modules/analysis/text";
import { typographySimilarity } from "#server/modules/analysis/typography";
import { thumbnail } from "#server/lib/image/thumbnail";
import { visualSimilarity } from "#server/modules/analysis/visual";
import { alpha, beta } from "./pages";
import { encodePng, makeExtraction, paint, textLines } from "./support";

const A = alpha();
const E = alpha(true);
const B = beta();

describe("scorePair on synthetic sites", () => {
  const same = scorePair(A, A);
  const near = scorePair(A, E);
  const far = scorePair(A, B);

  test("identical pages score 1 on every axis", () => {
    expect(same.colorSimilarity).toBeCloseTo(1, 3);
    expect(same.layoutSimilarity).toBeCloseTo(1, 3);
    expect(same.contentSimilarity).toBeCloseTo(1, 3);
    expect(same.overallSimilarity).toBeCloseTo(1, 3);
  });

  test("a lightly edited copy scores >= 0.85 overall and clearly above another brand", () => {
    expect(near.overallSimilarity).toBeGreaterThanOrEqual(0.85);
    expect(near.overallSimilarity).toBeLessThan(same.overallSimilarity);
    expect(far.overallSimilarity).toBeLessThan(0.5);
    expect(near.overallSimilarity - far.overallSimilarity).toBeGreaterThan(0.3);
    // Each axis orders the same way.
    for (const key of ["colorSimilarity", "layoutSimilarity", "contentSimilarity"] as const) {
      expect(near[key]).toBeGreaterThan(far[key]);
    }
  });

  test("every score is a fraction and the blend is the documented one", () => {
    for (const s of [same, near, far]) {
      for (const v of [s.colorSimilarity, s.layoutSimilarity, s.contentSimilarity, s.overallSimilarity, ...Object.values(s.components)]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
    }
    const d = BLEND.design;
    const design =
      (d.color * far.colorSimilarity + d.layout * far.layoutSimilarity + d.typography * far.components.typography!) /
      (d.color + d.layout + d.typography);
    expect(far.designSimilarity).toBeCloseTo(design, 3);
    expect(far.components.design).toBeCloseTo(design, 3);
    const w = BLEND.overall;
    expect(far.overallSimilarity).toBeCloseTo(
      (w.design * far.designSimilarity + w.content * far.contentSimilarity) / (w.design + w.content),
      3,
    );
    // The blend in colour, layout, content and type: 0.3 colour + 0.3 layout + 0.3 content + 0.1 type.
    const old = 0.3 * far.colorSimilarity + 0.3 * far.layoutSimilarity + 0.3 * far.contentSimilarity + 0.1 * far.components.typography!;
    expect(far.overallSimilarity).toBeCloseTo(old, 3);
  });

  test("symmetric", () => {
    const back = scorePair(B, A);
    expect(back.overallSimilarity).toBeCloseTo(far.overallSimilarity, 2);
    expect(back.colorSimilarity).toBeCloseTo(far.colorSimilarity, 4);
    expect(back.contentSimilarity).toBeCloseTo(far.contentSimilarity, 4);
  });

  test("rejects pairs from different viewports", () => {
    const mobile = { extraction: makeExtraction({}, "mobile"), png: A.png };
    expect(() => scorePair(A, mobile)).toThrow(/same viewport/);
  });

  test("a page with no palette in its extraction gets one measured from its pixels", () => {
    const bare = { extraction: { ...A.extraction, palette: { ...A.extraction.palette, dominant: [] } }, png: A.png };
    const s = scorePair(bare, A);
    expect(s.components["color.dominant"]).toBeGreaterThan(0.9);
  });
});

describe("visual (SSIM) part", () => {
  test("a shifted copy of a page scores far higher than an unrelated layout", () => {
    const blocks = [...textLines(40, 60, 600, 12, 30, 5), { x: 700, y: 60, w: 300, h: 300, color: [200, 40, 40] as const }];
    const base = decodePng(encodePng(1100, 1400, paint(1100, 1400, [255, 255, 255], blocks)));
    const moved = decodePng(
      encodePng(
        1100,
        1400,
        paint(
          1100,
          1400,
          [255, 255, 255],
          blocks.map((b) => ({ ...b, y: b.y + 40 })),
        ),
      ),
    );
    const other = decodePng(
      encodePng(
        1100,
        1400,
        paint(1100, 1400, [255, 255, 255], [{ x: 0, y: 0, w: 1100, h: 500, color: [20, 20, 20] }, ...textLines(300, 600, 500, 18, 40, 9)]),
      ),
    );
    const near = visualSimilarity(thumbnail(base), thumbnail(moved), "desktop").page;
    const far = visualSimilarity(thumbnail(base), thumbnail(other), "desktop").page;
    expect(visualSimilarity(thumbnail(base), thumbnail(base), "desktop").page).toBeCloseTo(1, 5);
    expect(near).toBeGreaterThan(0.8);
    expect(far).toBeLessThan(0.5);
  });

  test("area-averaging downscale preserves mean brightness and thin lines", () => {
    const img = decodePng(encodePng(600, 300, paint(600, 300, [255, 255, 255], [{ x: 0, y: 150, w: 600, h: 1, color: [0, 0, 0] }])));
    const small = downscaleGray(img, 100);
    expect(small.width).toBe(100);
    expect(small.height).toBe(50);
    let mean = 0;
    for (const v of small.data) mean += v;
    expect(mean / small.data.length).toBeCloseTo(255 * (1 - 1 / 300), 0);
    // The 1 px rule survives as a darker row (255 - 255/6 ≈ 212).
    expect(Math.min(...small.data)).toBeLessThan(220);
    expect(ssimGray(small, small)).toBeCloseTo(1, 6);
  });
});

describe("layout structure", () => {
  test("edit distance over the block sequence", () => {
    expect(editSimilarity(["header", "hero", "section"], ["header", "hero", "section"])).toBe(1);
    expect(editSimilarity(["header", "hero", "section", "footer"], ["nav", "hero", "section", "footer"])).toBe(0.75);
    expect(editSimilarity([], [])).toBe(1);
  });
  test("profile labels the most specific block at each height; wrappers only when alone", () => {
    const profile = regionProfile(A.extraction);
    expect(profile[0]).toBe("header");
    expect(profile).toContain("hero");
    expect(profile[profile.length - 1]).toBe("footer");
    expect(profile.filter((k) => k === "main")).toHaveLength(0);
  });
  test("same design scores 1, different grid/tokens lower", () => {
    expect(structureSimilarity(A.extraction, A.extraction).structure).toBe(1);
    expect(structureSimilarity(A.extraction, B.extraction).structure).toBeLessThan(0.8);
  });
});

describe("copy and type", () => {
  test("text similarity: same, lightly edited, unrelated", () => {
    const same = textSimilarity(A.extraction.copy, A.extraction.copy);
    const near = textSimilarity(A.extraction.copy, E.extraction.copy);
    const far = textSimilarity(A.extraction.copy, B.extraction.copy);
    expect(same.content).toBeCloseTo(1, 6);
    expect(near.vocabulary).toBeGreaterThan(0.85);
    expect(far.content).toBeLessThan(0.15);
    expect(near.content).toBeGreaterThan(far.content + 0.5);
  });
  test("stop words alone do not make two texts similar", () => {
    const s = textSimilarity(
      { visibleText: "the best way to do it is with your team and our tools", headline: "" },
      { visibleText: "the cat is on the mat with your dog and our bird", headline: "" },
    );
    expect(s.vocabulary).toBeLessThan(0.2);
  });
  test("headline similarity tolerates rewording and case", () => {
    expect(headlineSimilarity("Invoices that pay themselves", "INVOICES THAT PAY THEMSELVES!")).toBe(1);
    expect(headlineSimilarity("Invoices that pay themselves", "Invoices that pay for themselves")).toBeGreaterThan(0.7);
    expect(headlineSimilarity("Invoices that pay themselves", "Roast coffee at home")).toBeLessThan(0.2);
    expect(headlineSimilarity("", "")).toBe(1);
  });
  test("typography compares first-choice families, not fallbacks", () => {
    const t = typographySimilarity(A.extraction.typography, {
      ...A.extraction.typography,
      families: [
        { family: '"Inter", Arial', share: 0.9 },
        { family: "georgia", share: 0.1 },
      ],
    });
    expect(t.families).toBeCloseTo(1, 6);
    expect(typographySimilarity(A.extraction.typography, B.extraction.typography).typography).toBeLessThan(0.5);
  });
});
