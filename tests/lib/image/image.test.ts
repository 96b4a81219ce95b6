import { describe, expect, test } from "bun:test";
import { ssim } from "ssim.js";
import { createDownscaler, cropRows, ssimGray, type GrayImage } from "#server/lib/image/image";

const rows = (...values: number[]): GrayImage => ({
  width: 2,
  height: values.length,
  data: Float32Array.from(values.flatMap((v) => [v, v])),
});
const firstColumn = (img: GrayImage) => Array.from({ length: img.height }, (_, y) => img.data[y * img.width]);

describe("cropRows", () => {
  test("keeps the rows inside the image and pads the rest white", () => {
    expect(firstColumn(cropRows(rows(10, 20, 30), 1, 4))).toEqual([20, 30, 255, 255]);
    expect(firstColumn(cropRows(rows(10, 20, 30), -1, 2))).toEqual([255, 10]);
  });

  test("a window wholly below or above the image is all white, not an error", () => {
    expect(firstColumn(cropRows(rows(10, 20, 30), 5, 2))).toEqual([255, 255]);
    expect(firstColumn(cropRows(rows(10, 20, 30), 3, 1))).toEqual([255]);
    expect(firstColumn(cropRows(rows(10, 20, 30), -5, 2))).toEqual([255, 255]);
  });
});

/** A deterministic grey image with detail at every pixel (no two neighbours alike). */
const pattern = (width: number, height: number): GrayImage => ({
  width,
  height,
  data: Float32Array.from({ length: width * height }, (_, i) => ((i * 7919 + Math.floor(i / width) * 104_729) % 256) * 0.93),
});

/** The area average spelled out: each target cell is the coverage-weighted mean of the source pixels it overlaps. */
function plainAreaAverage(img: GrayImage, targetWidth: number): GrayImage {
  const scale = img.width / targetWidth;
  const height = Math.max(1, Math.round(img.height / scale));
  const data = new Float32Array(targetWidth * height);
  const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  for (let ty = 0; ty < height; ty++) {
    for (let tx = 0; tx < targetWidth; tx++) {
      let sum = 0;
      let weight = 0;
      for (let y = Math.floor(ty * scale); y < Math.min(img.height, Math.ceil((ty + 1) * scale)); y++) {
        const wy = overlap(y / scale, (y + 1) / scale, ty, ty + 1);
        for (let x = Math.floor(tx * scale); x < Math.min(img.width, Math.ceil((tx + 1) * scale)); x++) {
          const w = wy * overlap(x / scale, (x + 1) / scale, tx, tx + 1);
          sum += img.data[y * img.width + x]! * w;
          weight += w;
        }
      }
      data[ty * targetWidth + tx] = sum / weight;
    }
  }
  return { width: targetWidth, height, data };
}

function downscale(img: GrayImage, targetWidth: number): GrayImage {
  const scaler = createDownscaler(img.width, img.height, targetWidth);
  for (let y = 0; y < img.height; y++) scaler.push(img.data.subarray(y * img.width, (y + 1) * img.width));
  return scaler.finish();
}

describe("createDownscaler", () => {
  // 1440 -> 240 and 390 -> 65 are the desktop and phone thumbnails (whole pixels per cell); 1366 -> 228 splits pixels between
  // cells. Heights the target rows cover exactly (rows past the last cell are folded into it, which the plain average leaves out).
  for (const [width, height, target] of [
    [1440, 60, 240],
    [390, 90, 65],
    [1366, 47, 228],
    [100, 33, 48],
  ] as const) {
    test(`${width} x ${height} -> ${target} wide is the plain area average`, () => {
      const img = pattern(width, height);
      const got = downscale(img, target);
      const want = plainAreaAverage(img, target);
      expect([got.width, got.height]).toEqual([want.width, want.height]);
      for (let p = 0; p < want.data.length; p++) expect(Math.abs(got.data[p]! - want.data[p]!)).toBeLessThan(0.01);
    });
  }
});

describe("ssimGray", () => {
  /** The thumbnail as an RGBA canvas, the input ssim.js is documented for. */
  const rgba = (img: GrayImage) => {
    const data = new Uint8ClampedArray(img.width * img.height * 4);
    img.data.forEach((v, p) => data.set([v, v, v, 255], p * 4));
    return { width: img.width, height: img.height, data };
  };

  test("is exactly ssim.js's weber SSIM of the thumbnails drawn as RGBA, clamped to [0, 1]", () => {
    const a = pattern(120, 40);
    for (const [b, windowSize] of [
      [pattern(120, 40), 8],
      [{ ...a, data: a.data.map((v, i) => (i % 13 === 0 ? 300 - v : v + 0.4)) }, 8],
      [{ ...a, data: a.data.map((v, i) => ((i * 31) % 256) - 10) }, 11],
    ] as const) {
      const { mssim } = ssim(rgba(a), rgba(b), { ssim: "weber", downsample: false, windowSize });
      expect(ssimGray(a, b, windowSize)).toBe(Math.max(0, Math.min(1, mssim)));
    }
  });
});
