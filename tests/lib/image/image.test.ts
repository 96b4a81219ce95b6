import { describe, expect, test } from "bun:test";
import { cropRows, type GrayImage } from "#server/lib/image/image";

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
