// Screenshot pixels as the layout score and the capture handle them: decode (pngjs — pure JS, so
// the compiled binary needs no native image library), shrink to a grey thumbnail with an area
// average, and compare thumbnails with SSIM. At thumbnail scale text turns into grey bars, so SSIM measures arrangement
// (where the blocks, images and whitespace are) rather than glyphs or brand colours.

import { PNG } from "pngjs";
import { getOptions } from "ssim.js";
import { weberSsim } from "ssim.js/dist/weberSsim";

export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** Grey thumbnail, values 0..255. */
export interface GrayImage {
  width: number;
  height: number;
  data: Float32Array;
}

export function decodePng(bytes: Uint8Array): RgbaImage {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height, data: png.data };
}

/**
 * Area-averaging downscaler fed one grey source row at a time (so a 16 000 px tall screenshot never
 * needs a full-size grey copy, and a streaming decoder can feed it). Every source pixel contributes
 * to exactly the output cells it overlaps, with fractional coverage, so thin rules and text lines
 * are not dropped or aliased.
 */
export function createDownscaler(sw: number, sh: number, targetWidth: number): { push(row: Float32Array): void; finish(): GrayImage } {
  const tw = Math.max(1, Math.min(Math.round(targetWidth), sw));
  const scale = sw / tw;
  const th = Math.max(1, Math.round(sh / scale));
  const out = new Float32Array(tw * th);
  const weight = new Float32Array(tw * th);

  // Column spans are the same for every row: each source column falls in one or two target
  // columns; precompute the first and its coverage (0..1 of the source pixel).
  const colA = new Int32Array(sw);
  const colWa = new Float32Array(sw);
  for (let x = 0; x < sw; x++) {
    const start = x / scale;
    const end = (x + 1) / scale;
    const a = Math.min(tw - 1, Math.floor(start));
    colA[x] = a;
    colWa[x] = Math.min(1, (Math.min(end, a + 1) - start) * scale);
  }
  // Each row's weights are the same sums in the same order, so they are added up once, not per row.
  const rowWeights = new Float32Array(tw);
  for (let x = 0; x < sw; x++) {
    const a = colA[x]!;
    const wa = colWa[x]!;
    rowWeights[a] = rowWeights[a]! + wa;
    if (wa < 1 && a + 1 < tw) rowWeights[a + 1] = rowWeights[a + 1]! + (1 - wa);
  }
  // A whole-number scale (the usual 1/6 thumbnail) never splits a source pixel: each adds to one cell whole.
  const wholePixels = colWa.every((w) => w === 1);
  const rowSums = new Float32Array(tw);
  let y = 0;

  return {
    push(row) {
      if (y >= sh) return;
      rowSums.fill(0);
      if (wholePixels) {
        for (let x = 0; x < sw; x++) {
          const a = colA[x]!;
          rowSums[a] = rowSums[a]! + row[x]!;
        }
      } else {
        for (let x = 0; x < sw; x++) {
          const v = row[x]!;
          const a = colA[x]!;
          const wa = colWa[x]!;
          rowSums[a] = rowSums[a]! + v * wa;
          if (wa < 1 && a + 1 < tw) rowSums[a + 1] = rowSums[a + 1]! + v * (1 - wa);
        }
      }
      const start = y / scale;
      const end = (y + 1) / scale;
      const ty = Math.min(th - 1, Math.floor(start));
      const wy = Math.min(1, (Math.min(end, ty + 1) - start) * scale);
      const base = ty * tw;
      for (let tx = 0; tx < tw; tx++) {
        out[base + tx] = out[base + tx]! + rowSums[tx]! * wy;
        weight[base + tx] = weight[base + tx]! + rowWeights[tx]! * wy;
      }
      if (wy < 1 && ty + 1 < th) {
        const next = base + tw;
        for (let tx = 0; tx < tw; tx++) {
          out[next + tx] = out[next + tx]! + rowSums[tx]! * (1 - wy);
          weight[next + tx] = weight[next + tx]! + rowWeights[tx]! * (1 - wy);
        }
      }
      y++;
    },
    finish() {
      // Rows never delivered (truncated file) stay white, like the browser's empty canvas.
      for (let p = 0; p < out.length; p++) out[p] = weight[p]! > 0 ? out[p]! / weight[p]! : 255;
      return { width: tw, height: th, data: out };
    },
  };
}

function areaDownscale(sw: number, sh: number, targetWidth: number, fillRow: (y: number, row: Float32Array) => void): GrayImage {
  const scaler = createDownscaler(sw, sh, targetWidth);
  const row = new Float32Array(sw);
  for (let y = 0; y < sh; y++) {
    fillRow(y, row);
    scaler.push(row);
  }
  return scaler.finish();
}

/** Screenshot -> grey thumbnail `targetWidth` wide (Rec. 601 luma, the weights SSIM was defined on). */
export function downscaleGray(img: RgbaImage, targetWidth: number): GrayImage {
  const { width, height, data } = img;
  return areaDownscale(width, height, targetWidth, (y, row) => {
    let i = y * width * 4;
    for (let x = 0; x < width; x++, i += 4) {
      const alpha = data[i + 3]! / 255;
      // Transparent areas show the browser's white canvas.
      row[x] = (0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!) * alpha + 255 * (1 - alpha);
    }
  });
}

/** A grey thumbnail made narrower (used when two screenshots differ in width). */
export function resizeGray(img: GrayImage, targetWidth: number): GrayImage {
  if (targetWidth >= img.width) return img;
  return areaDownscale(img.width, img.height, targetWidth, (y, row) => row.set(img.data.subarray(y * img.width, (y + 1) * img.width)));
}

/** Rows [top, top + height) of a thumbnail; rows past the end are padded white (empty page). */
export function cropRows(img: GrayImage, top: number, height: number): GrayImage {
  const out = new Float32Array(img.width * height).fill(255);
  const from = Math.max(0, Math.min(img.height, top));
  const to = Math.max(from, Math.min(img.height, top + height));
  if (to > from) out.set(img.data.subarray(from * img.width, to * img.width), (from - top) * img.width);
  return { width: img.width, height, data: out };
}

const WEBER = getOptions({ ssim: "weber", downsample: false });

/**
 * The thumbnail as the grey matrix ssim.js makes of an RGBA image: each value clamped and rounded
 * to a byte (as an RGBA canvas would hold it), its integer grey of (v, v, v) being v again. Handed
 * straight to weberSsim, which spares an RGBA copy and ssim.js's grey conversion per band.
 */
const greyBytes = (img: GrayImage) => ({ width: img.width, height: img.height, data: Uint8ClampedArray.from(img.data) });

/** Mean SSIM of two equally sized thumbnails, clamped to [0, 1] (negative SSIM = unrelated). */
export function ssimGray(a: GrayImage, b: GrayImage, windowSize = 8): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error("ssimGray: size mismatch");
  if (a.height < windowSize || a.width < windowSize) return meanAbsSimilarity(a, b);
  const { mssim } = weberSsim(greyBytes(a), greyBytes(b), { ...WEBER, windowSize });
  return Math.max(0, Math.min(1, Number.isFinite(mssim) ? mssim : 0));
}

function meanAbsSimilarity(a: GrayImage, b: GrayImage): number {
  let diff = 0;
  for (let p = 0; p < a.data.length; p++) diff += Math.abs(a.data[p]! - b.data[p]!);
  return a.data.length === 0 ? 1 : 1 - diff / a.data.length / 255;
}
