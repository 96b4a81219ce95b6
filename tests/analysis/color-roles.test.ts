// Palette roles and design-vs-content similarity, as pure functions over hand-built extractions.
import { describe, expect, test } from "bun:test";
import { rolesSimilarity } from "#server/modules/analysis/color-roles";
import { paletteRoles } from "#server/modules/capture/public";
import { designFromParts, scorePair } from "#server/modules/analysis/similarity";
import { textSimilarity } from "#server/modules/analysis/text";
import type { Extraction } from "#server/modules/capture/model";
import { alpha, beta } from "./pages";

const yellowSite = {
  background: [
    { hex: "#ffffff", share: 0.9 },
    { hex: "#f8f9fa", share: 0.1 },
  ],
  text: [
    { hex: "#212529", share: 0.8 },
    { hex: "#6c757d", share: 0.2 },
  ],
  salient: [
    { hex: "#fec503", share: 0.5 },
    { hex: "#f2bb02", share: 0.2 }, // the same yellow, a shade darker (hover border)
    { hex: "#0d6efd", share: 0.2 },
    { hex: "#fafafa", share: 0.1 }, // a near-white is never a brand colour
  ],
};

describe("palette roles", () => {
  test("background and text from the largest areas; primary and secondary from salience", () => {
    expect(paletteRoles(yellowSite)).toEqual({ background: "#ffffff", text: "#212529", primary: "#fec503", secondary: "#0d6efd" });
  });

  test("a page without chromatic colours has no brand colours", () => {
    const roles = paletteRoles({ ...yellowSite, salient: [{ hex: "#333333", share: 1 }] });
    expect(roles.primary).toBeNull();
    expect(roles.secondary).toBeNull();
    expect(paletteRoles({ background: [], text: [] })).toEqual({ background: null, text: null, primary: null, secondary: null });
  });

  test("shades of one colour make one role; a secondary must be clearly another colour", () => {
    const roles = paletteRoles({
      ...yellowSite,
      salient: [
        { hex: "#fec503", share: 0.6 },
        { hex: "#f2bb02", share: 0.4 },
      ],
    });
    expect(roles.secondary).toBeNull();
  });

  test("recolouring the accent is a large difference even when everything else is equal", () => {
    const a = paletteRoles(yellowSite);
    const blue = paletteRoles({
      ...yellowSite,
      salient: [
        { hex: "#2563eb", share: 0.7 },
        { hex: "#0d6efd", share: 0.2 },
      ],
    });
    const s = rolesSimilarity(a, blue);
    expect(s.primary).toBeLessThan(0.2);
    expect(s.background).toBe(1);
    expect(s.roles).toBeLessThan(0.6);
    expect(rolesSimilarity(a, a).roles).toBe(1);
  });
});

/** `e` with its brand colour (buttons, salient colours, the CTA and its pixels' share) swapped. */
function recolour(e: Extraction, from: string, to: string): Extraction {
  const swap = (xs: { hex: string; share: number }[]) => xs.map((c) => (c.hex === from ? { ...c, hex: to } : c));
  return {
    ...e,
    palette: { ...e.palette, dominant: swap(e.palette.dominant), buttons: swap(e.palette.buttons), salient: swap(e.palette.salient ?? []) },
  };
}

describe("colour similarity uses the roles", () => {
  const A = alpha();
  const withRoles = (e: Extraction): Extraction => ({
    ...e,
    palette: {
      ...e.palette,
      salient: [
        { hex: "#2563eb", share: 0.8 },
        { hex: "#dbeafe", share: 0.2 },
      ],
    },
  });
  const a = { extraction: withRoles(A.extraction), png: A.png };

  test("a brand accent recoloured on small elements drops colour similarity below 0.7", () => {
    const b = { extraction: recolour(a.extraction, "#2563eb", "#f59e0b"), png: A.png };
    const s = scorePair(a, b);
    expect(s.components["color.primary"]).toBeLessThan(0.2);
    expect(s.colorSimilarity).toBeLessThan(0.7);
    // Nothing but colour changed: layout and copy are untouched, and design stays well above a far pair.
    expect(s.layoutSimilarity).toBeCloseTo(1, 3);
    expect(s.contentSimilarity).toBeCloseTo(1, 3);
  });

  test("captures without colour roles keep the area-only blend", () => {
    const s = scorePair(A, A);
    expect(s.components["color.roles"]).toBeUndefined();
    expect(s.colorSimilarity).toBeCloseTo(1, 3);
  });
});

describe("design apart from copy", () => {
  const A = alpha();
  const B = beta();
  const reworded: Extraction = { ...A.extraction, copy: { ...B.extraction.copy } };
  const sameCopy: Extraction = { ...B.extraction, copy: { ...A.extraction.copy } };

  test("a page whose copy is replaced keeps its design similarity; content drops", () => {
    const s = scorePair(A, { extraction: reworded, png: A.png });
    expect(s.designSimilarity).toBeCloseTo(1, 3);
    expect(s.contentSimilarity).toBeLessThan(0.2);
    expect(s.overallSimilarity).toBeCloseTo(0.7 + 0.3 * s.contentSimilarity, 3);
  });

  test("an unrelated design with the same copy is not design-similar", () => {
    const s = scorePair(A, { extraction: sameCopy, png: B.png });
    expect(s.contentSimilarity).toBeCloseTo(1, 3);
    expect(s.designSimilarity).toBeLessThan(0.5);
    // The reworded near copy still ranks above it overall.
    const near = scorePair(A, { extraction: reworded, png: A.png });
    expect(near.overallSimilarity).toBeGreaterThan(s.overallSimilarity);
  });

  test("a stored diff without a design figure gets it from its parts", () => {
    expect(designFromParts(0.6, 0.9, 0.5)).toBeCloseTo((3 * 0.6 + 3 * 0.9 + 0.5) / 7, 4);
    expect(designFromParts(0.6, 0.9, null)).toBeCloseTo(0.75, 4);
  });
});

describe("boilerplate words count little in content", () => {
  const nav = "Home About Blog Contact Learn more Read more Sign up Privacy Policy Terms Copyright All rights reserved";
  test("two unrelated pages that share navigation and footer words are not content-similar", () => {
    const a = {
      visibleText: `${nav} Roast your own coffee beans at home with our small batch grinder and kettle.`,
      headline: "Roast coffee at home",
    };
    const b = {
      visibleText: `${nav} Send invoices that chase late payers and reconcile with your bank automatically.`,
      headline: "Invoices that pay themselves",
    };
    const s = textSimilarity(a, b);
    expect(s.vocabulary).toBeLessThan(0.25);
    expect(s.phrasing).toBeLessThan(0.1);
    expect(s.content).toBeLessThan(0.2);
  });
  test("the same substantive text still scores as the same", () => {
    const a = { visibleText: `${nav} Roast your own coffee beans at home.`, headline: "Roast coffee" };
    expect(textSimilarity(a, a).content).toBeCloseTo(1, 6);
  });
});
