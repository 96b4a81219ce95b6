// Regions a capture masked (a consent banner left on screen) weigh in no similarity and no finding.
import { describe, expect, test } from "bun:test";
import { decodePng } from "#server/lib/image/image";
import type { Extraction } from "#server/modules/capture/model";
import { findingsFor } from "#server/modules/analysis/findings";
import { withoutMasked } from "#server/modules/analysis/findings/masked";
import { scorePair } from "#server/modules/analysis/similarity";
import { alpha } from "./pages";
import { encodePng, makeExtraction } from "./support";

const BANNER = { x: 0, y: 760, width: 1440, height: 140 };

/** Alpha with a dark banner painted over the bottom of its first screen. */
function withBanner(masked: boolean) {
  const a = alpha();
  const img = decodePng(a.png);
  const data = new Uint8Array(img.data);
  for (let y = BANNER.y; y < BANNER.y + BANNER.height; y++)
    for (let x = 0; x < img.width; x++) data.set([0x1f, 0x2a, 0x44, 255], (y * img.width + x) * 4);
  const extraction: Extraction = masked ? { ...a.extraction, masks: [BANNER] } : a.extraction;
  return { extraction, png: encodePng(img.width, img.height, data) };
}

describe("masks in similarity", () => {
  test("a banner on one page lowers the pixel likeness; masked, the pages are alike again", () => {
    const a = alpha();
    const unmasked = scorePair(a, withBanner(false));
    const masked = scorePair(a, withBanner(true));
    expect(unmasked.components["layout.ssimFold"]!).toBeLessThan(0.97);
    expect(masked.components["layout.ssimFold"]!).toBeGreaterThan(unmasked.components["layout.ssimFold"]! + 0.02);
    // The region is painted alike in both: apart from it the pages are the same.
    expect(masked.components["layout.ssim"]!).toBeGreaterThan(0.99);
  }, 60_000); // two full decodes of two 1440 × 3 000 px pages: seconds on a busy machine
});

describe("masks in findings", () => {
  const cta = (text: string, y: number, aboveFold: boolean) => ({
    text,
    box: { x: 100, y, width: 160, height: 44 },
    aboveFold,
    href: null,
    bg: "#68b631",
    fg: "#ffffff",
  });
  // Harbor's only button in the first screen is its banner's; Lumen has none there.
  const harbor = (masks: Extraction["masks"]) => ({
    targetId: "t1",
    label: "Harbor",
    viewport: "desktop" as const,
    extraction: {
      ...makeExtraction(),
      masks,
      elements: { ...makeExtraction().elements, ctas: [cta("Accept All Cookies", 820, true), cta("Book a demo", 1300, false)] },
    },
  });
  const lumen = {
    targetId: "t2",
    label: "Lumen",
    viewport: "desktop" as const,
    extraction: { ...makeExtraction(), elements: { ...makeExtraction().elements, ctas: [] } },
  };

  test("what lies in a masked region is not there for the rules", () => {
    expect(withoutMasked(harbor([BANNER])).extraction.elements.ctas.map((c) => c.text)).toEqual(["Book a demo"]);
    expect(withoutMasked(harbor(undefined)).extraction.elements.ctas).toHaveLength(2);
    // Unmasked, the banner's button is quoted to Lumen as Harbor's call to action; masked, never.
    expect(JSON.stringify(findingsFor([harbor(undefined), lumen]))).toContain("Accept All Cookies");
    const masked = findingsFor([harbor([BANNER]), lumen]);
    expect(JSON.stringify(masked)).not.toContain("Accept All Cookies");
    expect(masked.find((f) => f.targetId === "t1" && f.title.includes("no call to action above the fold"))).toBeDefined();
  });
});
