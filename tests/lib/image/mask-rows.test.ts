import { describe, expect, test } from "bun:test";
import { fillRectsGray, greyOf, rgbOf, rowMasker } from "#server/lib/image/mask-rows";

describe("masking rows as they stream", () => {
  const rects = [{ x: 2, y: 1, width: 2, height: 2 }];

  test("rows no rect crosses come back as they are; crossed ones as a painted copy", () => {
    const mask = rowMasker(6, 4, rects, [9, 8, 7]);
    const row = new Uint8Array(6 * 4).fill(100);
    expect(mask(row, 0)).toBe(row);
    const painted = mask(row, 1);
    expect(painted).not.toBe(row);
    expect(Array.from(row)).toEqual(new Array(24).fill(100)); // the decoder's row is left alone
    expect(Array.from(painted.subarray(0, 8))).toEqual(new Array(8).fill(100));
    expect(Array.from(painted.subarray(8, 16))).toEqual([9, 8, 7, 255, 9, 8, 7, 255]);
    expect(Array.from(painted.subarray(16))).toEqual(new Array(8).fill(100));
    expect(mask(row, 3)).toBe(row);
  });

  test("RGB and grey rows; a rect past the edge is cut there", () => {
    const rgb = rowMasker(3, 3, [{ x: 2, y: 0, width: 10, height: 1 }], [1, 2, 3]);
    expect(Array.from(rgb(new Uint8Array(9), 0))).toEqual([0, 0, 0, 0, 0, 0, 1, 2, 3]);
    const grey = rowMasker(2, 1, [{ x: 0, y: 0, width: 1, height: 1 }], [255, 255, 255]);
    expect(Array.from(grey(new Uint8Array(2), 0))).toEqual([255, 0]);
  });

  test("colours", () => {
    expect(rgbOf("#0f766e")).toEqual([15, 118, 110]);
    expect(rgbOf(null)).toEqual([255, 255, 255]);
    expect(greyOf("#ffffff")).toBeCloseTo(255, 5);
  });
});

describe("masking a grey thumbnail", () => {
  test("a copy with the rects (scaled) painted; nothing to paint leaves the image itself", () => {
    const img = { width: 4, height: 2, data: new Float32Array(8).fill(10) };
    expect(fillRectsGray(img, [], 0.5, 0)).toBe(img);
    const out = fillRectsGray(img, [{ x: 2, y: 0, width: 4, height: 2 }], 0.5, 200);
    expect(Array.from(out.data)).toEqual([10, 200, 200, 10, 10, 10, 10, 10]);
    expect(Array.from(img.data)).toEqual(new Array(8).fill(10));
  });
});
