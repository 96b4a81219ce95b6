import { describe, expect, test } from "bun:test";
import {
  adjustForContrast,
  contrastFix,
  contrastRatio,
  deltaE2000,
  hexToLab,
  hexToRgb,
  relativeLuminance,
  rgbToHex,
  rgbToLab,
} from "#server/lib/image/color";

// Sharma, Wu & Dalal (2005), "The CIEDE2000 color-difference formula: implementation notes,
// supplementary test data, and mathematical observations", Table 1 (all 34 pairs).
const SHARMA: [number[], number[], number][] = [
  [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
  [[50, 3.1571, -77.2803], [50, 0, -82.7485], 2.8615],
  [[50, 2.8361, -74.02], [50, 0, -82.7485], 3.4412],
  [[50, -1.3802, -84.2814], [50, 0, -82.7485], 1.0],
  [[50, -1.1848, -84.8006], [50, 0, -82.7485], 1.0],
  [[50, -0.9009, -85.5211], [50, 0, -82.7485], 1.0],
  [[50, 0, 0], [50, -1, 2], 2.3669],
  [[50, -1, 2], [50, 0, 0], 2.3669],
  [[50, 2.49, -0.001], [50, -2.49, 0.0009], 7.1792],
  [[50, 2.49, -0.001], [50, -2.49, 0.001], 7.1792],
  [[50, 2.49, -0.001], [50, -2.49, 0.0011], 7.2195],
  [[50, 2.49, -0.001], [50, -2.49, 0.0012], 7.2195],
  [[50, -0.001, 2.49], [50, 0.0009, -2.49], 4.8045],
  [[50, -0.001, 2.49], [50, 0.001, -2.49], 4.8045],
  [[50, -0.001, 2.49], [50, 0.0011, -2.49], 4.7461],
  [[50, 2.5, 0], [50, 0, -2.5], 4.3065],
  [[50, 2.5, 0], [73, 25, -18], 27.1492],
  [[50, 2.5, 0], [61, -5, 29], 22.8977],
  [[50, 2.5, 0], [56, -27, -3], 31.903],
  [[50, 2.5, 0], [58, 24, 15], 19.4535],
  [[50, 2.5, 0], [50, 3.1736, 0.5854], 1.0],
  [[50, 2.5, 0], [50, 3.2972, 0], 1.0],
  [[50, 2.5, 0], [50, 1.8634, 0.5757], 1.0],
  [[50, 2.5, 0], [50, 3.2592, 0.335], 1.0],
  [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
  [[63.0109, -31.0961, -5.8663], [62.8187, -29.7946, -4.0864], 1.263],
  [[61.2901, 3.7196, -5.3901], [61.4292, 2.248, -4.962], 1.8731],
  [[35.0831, -44.1164, 3.7933], [35.0232, -40.0716, 1.5901], 1.8645],
  [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
  [[36.4612, 47.858, 18.3852], [36.2715, 50.5065, 21.2231], 1.4146],
  [[90.8027, -2.0831, 1.441], [91.1528, -1.6435, 0.0447], 1.4441],
  [[90.9257, -0.5406, -0.9208], [88.6381, -0.8985, -0.7239], 1.5381],
  [[6.7747, -0.2908, -2.4247], [5.8714, -0.0985, -2.2286], 0.6377],
  [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
];

describe("CIEDE2000", () => {
  test.each(SHARMA.map((row, i) => [i + 1, ...row] as const))("Sharma pair %i", (_n, a, b, expected) => {
    const lab1 = a as unknown as [number, number, number];
    const lab2 = b as unknown as [number, number, number];
    expect(deltaE2000(lab1, lab2)).toBeCloseTo(expected, 4);
    // The formula is symmetric.
    expect(deltaE2000(lab2, lab1)).toBeCloseTo(expected, 4);
  });

  test("identical colours have zero difference", () => {
    expect(deltaE2000([53.2, 80.1, 67.2], [53.2, 80.1, 67.2])).toBe(0);
  });
});

describe("conversions", () => {
  test("hex parsing", () => {
    expect(hexToRgb("#2563eb")).toEqual([0x25, 0x63, 0xeb]);
    expect(hexToRgb("fff")).toEqual([255, 255, 255]);
    expect(hexToRgb("#12345")).toBeNull();
    expect(hexToRgb("rgb(0,0,0)")).toBeNull();
    // Hex with alpha is not an opaque colour: callers compare and contrast opaque colours only.
    expect(hexToRgb("#ff000080")).toBeNull();
    expect(hexToRgb("#f008")).toBeNull();
    expect(rgbToHex(37, 99, 235)).toBe("#2563eb");
    expect(rgbToHex(-3, 300, 12.4)).toBe("#00ff0c");
  });

  test("sRGB to CIELAB matches reference values (D65)", () => {
    const white = rgbToLab(255, 255, 255);
    expect(white[0]).toBeCloseTo(100, 2);
    expect(Math.abs(white[1])).toBeLessThan(0.01);
    expect(Math.abs(white[2])).toBeLessThan(0.01);
    // sRGB red: L 53.24, a 80.09, b 67.20 (Lindbloom)
    const red = rgbToLab(255, 0, 0);
    expect(red[0]).toBeCloseTo(53.24, 1);
    expect(red[1]).toBeCloseTo(80.09, 1);
    expect(red[2]).toBeCloseTo(67.2, 1);
    const mid = hexToLab("#777777")!;
    expect(mid[0]).toBeCloseTo(50.03, 1);
  });

  test("WCAG luminance and contrast", () => {
    expect(relativeLuminance(255, 255, 255)).toBeCloseTo(1, 6);
    expect(relativeLuminance(0, 0, 0)).toBe(0);
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 6);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 6);
    // Well-known pairs: #767676 on white is the lightest grey passing AA (4.54:1).
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5);
    expect(Number.isNaN(contrastRatio("nope", "#fff"))).toBe(true);
  });

  test("adjustForContrast keeps the hue and reaches the target", () => {
    const fixed = adjustForContrast("#9ca3af", "#ffffff", 4.5)!;
    expect(contrastRatio(fixed, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    const before = hexToLab("#9ca3af")!;
    const after = hexToLab(fixed)!;
    expect(after[0]).toBeLessThan(before[0]);
    expect(Math.hypot(after[1] - before[1], after[2] - before[2])).toBeLessThan(4);
    // Light text on a dark background is lightened instead.
    const light = adjustForContrast("#555555", "#111111", 4.5)!;
    expect(hexToLab(light)![0]).toBeGreaterThan(hexToLab("#555555")![0]);
    expect(contrastRatio(light, "#111111")).toBeGreaterThanOrEqual(4.5);
    // Already passing: unchanged.
    expect(adjustForContrast("#111827", "#ffffff")).toBe("#111827");
  });

  test("contrastFix changes the background when the text is already white or black", () => {
    const fix = contrastFix("#ffffff", "#059669", 4.5)!;
    expect(fix.fg).toBe("#ffffff");
    expect(fix.bg).not.toBe("#059669");
    expect(contrastRatio(fix.fg, fix.bg)).toBeGreaterThanOrEqual(4.5);
    expect(hexToLab(fix.bg)![0]).toBeLessThan(hexToLab("#059669")![0]);
    expect(adjustForContrast("#ffffff", "#059669")).toBeNull();
    expect(contrastFix("#ffffff", "nope")).toBeNull();
  });
});
