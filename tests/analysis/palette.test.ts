import { describe, expect, test } from "bun:test";
import { deltaE2000Hex } from "#server/lib/image/color";
import { dominantColors, isDarkImage, meanLuminance } from "#server/lib/image/palette";
import { paletteDistance, paletteSimilarity } from "#server/modules/analysis/palette-similarity";
import { paint, textLines } from "./support";

const shareOf = (palette: { hex: string; share: number }[], hex: string) =>
  palette.filter((p) => deltaE2000Hex(p.hex, hex) < 3).reduce((s, p) => s + p.share, 0);

describe("dominantColors", () => {
  test("recovers flat colours and their area shares exactly", () => {
    // 1000 x 1000: top 20% brand blue, left quarter of the rest dark navy, the rest white.
    const img = paint(
      1000,
      1000,
      [255, 255, 255],
      [
        { x: 0, y: 0, w: 1000, h: 200, color: [0x25, 0x63, 0xeb] },
        { x: 0, y: 200, w: 250, h: 800, color: [0x11, 0x18, 0x27] },
      ],
    );
    const palette = dominantColors(img, 1000, 1000);
    expect(palette.map((p) => p.hex)).toEqual(["#ffffff", "#111827", "#2563eb"]);
    expect(palette[0]!.share).toBeCloseTo(0.6, 1);
    expect(palette[1]!.share).toBeCloseTo(0.2, 1);
    expect(palette[2]!.share).toBeCloseTo(0.2, 1);
    expect(palette.reduce((s, p) => s + p.share, 0)).toBeCloseTo(1, 6);
  });

  test("merges near-duplicate shades (ΔE00 < 5) and orders by prominence", () => {
    const img = paint(
      400,
      400,
      [255, 255, 255],
      [
        { x: 0, y: 0, w: 400, h: 100, color: [0x25, 0x63, 0xeb] },
        { x: 0, y: 100, w: 400, h: 60, color: [0x27, 0x65, 0xea] }, // imperceptibly different blue
        { x: 0, y: 300, w: 400, h: 40, color: [0xf5, 0x9e, 0x0b] },
      ],
    );
    const palette = dominantColors(img, 400, 400);
    expect(palette).toHaveLength(3);
    expect(shareOf(palette, "#2563eb")).toBeCloseTo(0.4, 1);
    expect(shareOf(palette, "#ffffff")).toBeCloseTo(0.5, 1);
    expect(shareOf(palette, "#f59e0b")).toBeCloseTo(0.1, 1);
    for (let i = 1; i < palette.length; i++) expect(palette[i - 1]!.share).toBeGreaterThanOrEqual(palette[i]!.share);
  });

  test("keeps at most k colours, and anti-aliasing noise does not become a palette entry", () => {
    const blocks = Array.from({ length: 12 }, (_, i) => ({
      x: 0,
      y: i * 50,
      w: 600,
      h: 50,
      color: [i * 20, 255 - i * 20, (i * 67) % 256] as const,
    }));
    const img = paint(600, 600, [255, 255, 255], blocks);
    expect(dominantColors(img, 600, 600, 5)).toHaveLength(5);

    const page = paint(800, 600, [255, 255, 255], textLines(40, 40, 720, 20, 28, 7));
    const pal = dominantColors(page, 800, 600);
    expect(pal[0]!.hex).toBe("#ffffff");
    expect(shareOf(pal, "#111827")).toBeGreaterThan(0.1);
  });

  test("samples a 1440 x 16000 page with a stride and still sees a 2% band", () => {
    const img = paint(1440, 16000, [250, 250, 250], [{ x: 0, y: 8000, w: 1440, h: 320, color: [220, 38, 38] }]);
    const palette = dominantColors(img, 1440, 16000);
    expect(shareOf(palette, "#dc2626")).toBeCloseTo(0.02, 2);
  });

  test("ignores transparent pixels and handles degenerate input", () => {
    const img = paint(10, 10, [255, 0, 0], []);
    for (let i = 3; i < 200; i += 4) img[i] = 0; // first half transparent
    const palette = dominantColors(img, 10, 10);
    expect(palette).toEqual([{ hex: "#ff0000", share: 1 }]);
    expect(dominantColors(new Uint8Array(0), 0, 0)).toEqual([]);
    expect(dominantColors(new Uint8Array(16), 10, 10)).toEqual([]);
  });
});

describe("isDarkImage", () => {
  test("dark and light themes by area-weighted luminance", () => {
    expect(isDarkImage(paint(300, 300, [15, 23, 42], textLines(10, 10, 280, 8, 30, 3, [226, 232, 240])), 300, 300)).toBe(true);
    expect(isDarkImage(paint(300, 300, [255, 255, 255], textLines(10, 10, 280, 8, 30, 3)), 300, 300)).toBe(false);
    // A light page with a dark hero covering a third of it is still a light page.
    expect(isDarkImage(paint(300, 900, [255, 255, 255], [{ x: 0, y: 0, w: 300, h: 300, color: [0, 0, 0] }]), 300, 900)).toBe(false);
    expect(meanLuminance(paint(4, 4, [0, 0, 0], []), 4, 4)).toBe(0);
  });
});

describe("paletteSimilarity", () => {
  const brandA = [
    { hex: "#ffffff", share: 0.7 },
    { hex: "#111827", share: 0.2 },
    { hex: "#2563eb", share: 0.1 },
  ];
  test("identical palettes score 1; order of entries does not matter", () => {
    expect(paletteSimilarity(brandA, brandA)).toBe(1);
    expect(paletteSimilarity(brandA, [...brandA].reverse())).toBe(1);
  });
  test("a slightly shifted accent scores high; another brand scores low; symmetric", () => {
    const tweaked = [
      { hex: "#ffffff", share: 0.68 },
      { hex: "#111827", share: 0.2 },
      { hex: "#1d4ed8", share: 0.12 },
    ];
    const other = [
      { hex: "#0f172a", share: 0.65 },
      { hex: "#f97316", share: 0.25 },
      { hex: "#fde68a", share: 0.1 },
    ];
    const near = paletteSimilarity(brandA, tweaked)!;
    const far = paletteSimilarity(brandA, other)!;
    expect(near).toBeGreaterThan(0.9);
    expect(far).toBeLessThan(0.3);
    expect(paletteSimilarity(other, brandA)).toBeCloseTo(far, 9);
    expect(paletteDistance(brandA, tweaked)!).toBeLessThan(paletteDistance(brandA, other)!);
  });
  test("empty palettes are unknown, not different", () => {
    expect(paletteSimilarity([], brandA)).toBeNull();
    expect(paletteSimilarity([{ hex: "garbage", share: 1 }], brandA)).toBeNull();
  });
});
