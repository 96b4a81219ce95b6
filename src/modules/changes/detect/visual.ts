// `visual` changes: a pixel diff of two full-page screenshots of the same target at the same
// viewport. Across brands a pixel diff means nothing; for one page between two runs it shows
// exactly what moved. Noise handling, in order:
// - CSS animations and transitions are frozen by the capture (screenshots use animations: "disabled");
// - sub-pixel anti-aliasing: pixelmatch's AA detection (a pixel that differs only because an edge
//   rendered a fraction of a pixel differently is not counted), colour threshold 0.1 (YIQ);
// - specks: changed pixels are binned into CELL×CELL cells; a cell needs MIN_CELL_PIXELS changed
//   pixels, a region MIN_REGION_PIXELS, so a caret blink or a single glyph's hinting is dropped;
// - parts of the page that change by themselves (volatility boxes: carousels, tickers) are masked:
//   the before pixels are copied over the after pixels there before diffing.

import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import type { RgbaImage } from "#server/lib/image/image";
import type { Box, Viewport } from "#server/modules/capture/model";
import type { DetectedChange as Change, Severity } from "../model";

const CELL = 8;
const MIN_CELL_PIXELS = 3;
const MIN_REGION_PIXELS = 40;
/** Regions closer than this many cells merge into one box. */
const MERGE_CELLS = 2;
const MAX_REGIONS = 20;

export interface VisualDiff {
  width: number;
  /** Height of the compared page (the taller of the two). */
  height: number;
  beforeHeight: number;
  afterHeight: number;
  changedPixels: number;
  changedShare: number;
  /** Changed regions in after-side CSS px, largest first. */
  regions: Box[];
  /** Boxes that were masked as volatile. */
  masked: Box[];
  /**
   * The after screenshot faded to grey with changed pixels in red, changed regions outlined in red
   * and masked parts in amber: a PNG. Encoded on demand (a 16 000 px page takes seconds).
   */
  heatmap(): Uint8Array;
}

function clip(b: Box, w: number, h: number): Box | null {
  const x = Math.max(0, Math.floor(b.x));
  const y = Math.max(0, Math.floor(b.y));
  const x2 = Math.min(w, Math.ceil(b.x + b.width));
  const y2 = Math.min(h, Math.ceil(b.y + b.height));
  return x2 > x && y2 > y ? { x, y, width: x2 - x, height: y2 - y } : null;
}

/** Rows [top, top + height) of `img` at `width` columns, as a fresh buffer. */
function rows(img: RgbaImage, width: number, top: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const rowBytes = width * 4;
  for (let y = 0; y < height; y++) {
    const from = (top + y) * img.width * 4;
    out.set(img.data.subarray(from, from + rowBytes), y * rowBytes);
  }
  return out;
}

/**
 * Rows compared at a time. A 16 000 px page diffed in one go needs three more full-size RGBA
 * buffers (~90 MB each at 1440 px); in bands it needs a few MB, plus one byte per pixel for the
 * changed map. Bands overlap by one row so anti-aliasing detection sees its neighbours at the seams.
 */
const BAND_ROWS = 512;

export function visualDiff(before: RgbaImage, after: RgbaImage, volatile: Box[] = []): VisualDiff {
  const width = Math.min(before.width, after.width);
  const common = Math.min(before.height, after.height);
  const height = Math.max(before.height, after.height);
  const masked = volatile.map((box) => clip(box, width, common)).filter((c): c is Box => c !== null);
  /** 1 where the pixel changed (anti-aliasing and masked parts excluded). */
  const changedMap = new Uint8Array(width * common);
  for (let top = 0; top < common; top += BAND_ROWS) {
    const y0 = Math.max(0, top - 1);
    const y1 = Math.min(common, top + BAND_ROWS + 1);
    const h = y1 - y0;
    const a = rows(before, width, y0, h);
    const b = rows(after, width, y0, h);
    for (const c of masked) {
      for (let y = Math.max(c.y, y0); y < Math.min(c.y + c.height, y1); y++) {
        const i = ((y - y0) * width + c.x) * 4;
        b.set(a.subarray(i, i + c.width * 4), i);
      }
    }
    const out = new Uint8Array(width * h * 4);
    pixelmatch(a, b, out, width, h, {
      threshold: 0.1,
      includeAA: false,
      diffMask: true,
      diffColor: [255, 0, 0],
      diffColorAlt: [255, 0, 0],
      aaColor: [0, 0, 255],
    });
    for (let y = top; y < Math.min(top + BAND_ROWS, common); y++) {
      const src = (y - y0) * width * 4;
      const dst = y * width;
      for (let x = 0; x < width; x++) {
        const i = src + x * 4;
        if (out[i + 3] !== 0 && out[i] === 255 && out[i + 1] === 0 && out[i + 2] === 0) changedMap[dst + x] = 1;
      }
    }
  }

  // Bin changed pixels into cells.
  const cw = Math.ceil(width / CELL);
  const ch = Math.ceil(common / CELL);
  const cells = new Uint16Array(cw * ch);
  for (let y = 0; y < common; y++) {
    const cy = (y / CELL) | 0;
    const row = y * width;
    for (let x = 0; x < width; x++) if (changedMap[row + x]) cells[cy * cw + ((x / CELL) | 0)]!++;
  }

  // Connected hot cells (with a MERGE_CELLS gap allowed) form regions.
  const label = new Int32Array(cw * ch).fill(-1);
  const found: { box: Box; pixels: number }[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (cells[start]! < MIN_CELL_PIXELS || label[start] !== -1) continue;
    const id = found.length;
    let minX = cw;
    let minY = ch;
    let maxX = -1;
    let maxY = -1;
    let pixels = 0;
    const stack = [start];
    label[start] = id;
    while (stack.length) {
      const c = stack.pop()!;
      const cx = c % cw;
      const cy = (c / cw) | 0;
      pixels += cells[c]!;
      minX = Math.min(minX, cx);
      maxX = Math.max(maxX, cx);
      minY = Math.min(minY, cy);
      maxY = Math.max(maxY, cy);
      for (let dy = -MERGE_CELLS; dy <= MERGE_CELLS; dy++) {
        for (let dx = -MERGE_CELLS; dx <= MERGE_CELLS; dx++) {
          const nx = cx + dx;
          const ny = cy + dy;
          if (nx < 0 || ny < 0 || nx >= cw || ny >= ch) continue;
          const n = ny * cw + nx;
          if (label[n] !== -1 || cells[n]! < MIN_CELL_PIXELS) continue;
          label[n] = id;
          stack.push(n);
        }
      }
    }
    found.push({
      box: {
        x: minX * CELL,
        y: minY * CELL,
        width: Math.min(width, (maxX + 1) * CELL) - minX * CELL,
        height: Math.min(common, (maxY + 1) * CELL) - minY * CELL,
      },
      pixels,
    });
  }
  const kept = found.filter((r) => r.pixels >= MIN_REGION_PIXELS);
  let changedPixels = kept.reduce((s, r) => s + r.pixels, 0);
  const regions = kept.map((r) => r.box);
  // Page length changed: the strip only one page has is changed, all of it.
  if (height > common) {
    regions.push({ x: 0, y: common, width, height: height - common });
    changedPixels += width * (height - common);
  }
  regions.sort((p, q) => q.width * q.height - p.width * p.height);

  return {
    width,
    height,
    beforeHeight: before.height,
    afterHeight: after.height,
    changedPixels,
    changedShare: changedPixels / (width * height),
    regions: regions.slice(0, MAX_REGIONS),
    masked,
    heatmap: () =>
      heatmapPng(
        after,
        width,
        height,
        changedMap,
        common,
        kept.map((r) => r.box),
        masked,
      ),
  };
}

function heatmapPng(
  after: RgbaImage,
  width: number,
  height: number,
  changedMap: Uint8Array,
  common: number,
  regions: Box[],
  masked: Box[],
): Uint8Array {
  const png = new PNG({ width, height });
  const out = png.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      let grey = 255;
      if (y < after.height) {
        const i = (y * after.width + x) * 4;
        // Faded luminance of the after page, so the red reads at a glance.
        grey = 255 - (255 - (0.299 * after.data[i]! + 0.587 * after.data[i + 1]! + 0.114 * after.data[i + 2]!)) * 0.25;
      }
      const hot = y >= common || changedMap[y * width + x] === 1;
      out[o] = hot ? 230 : grey;
      out[o + 1] = hot ? 30 : grey;
      out[o + 2] = hot ? 40 : grey;
      out[o + 3] = 255;
    }
  }
  const outline = (b: Box, rgb: [number, number, number]) => {
    const c = clip(b, width, height);
    if (!c) return;
    for (let t = 0; t < 2; t++) {
      for (let x = c.x; x < c.x + c.width; x++)
        for (const y of [c.y + t, c.y + c.height - 1 - t]) if (y >= 0 && y < height) out.set([...rgb, 255], (y * width + x) * 4);
      for (let y = c.y; y < c.y + c.height; y++)
        for (const x of [c.x + t, c.x + c.width - 1 - t]) if (x >= 0 && x < width) out.set([...rgb, 255], (y * width + x) * 4);
    }
  };
  for (const b of masked) outline(b, [245, 158, 11]);
  for (const b of regions) outline(b, [220, 38, 38]);
  // Fast settings: the picture is flat colour and grey, and it is made while someone waits.
  return new Uint8Array(PNG.sync.write(png, { deflateLevel: 3, filterType: 1 }));
}

const pct = (x: number) => (x >= 0.1 ? `${Math.round(x * 100)}%` : `${(x * 100).toFixed(1)}%`);

export function visualChange(diff: VisualDiff, viewport: Viewport): Change | null {
  // Specks were dropped when the regions were found: any region left is a visible change.
  if (diff.regions.length === 0) return null;
  const severity: Severity = diff.changedShare >= 0.2 ? "high" : diff.changedShare >= 0.03 ? "medium" : "low";
  const top = diff.regions[0]!;
  const n = diff.regions.length;
  return {
    kind: "visual",
    severity,
    viewport,
    summary: `${pct(diff.changedShare)} of the page changed in ${n} region${n === 1 ? "" : "s"} (largest ${top.width}×${top.height} px at ${top.x},${top.y})`,
    before: `${diff.beforeHeight} px tall page`,
    after: `${diff.afterHeight} px tall page, ${pct(diff.changedShare)} changed`,
    evidence: { regions: diff.regions, changedShare: Math.round(diff.changedShare * 10000) / 10000, afterBox: top },
  };
}
