// Contrast against what is painted. CSS only knows a background when it is a flat colour down the
// ancestor chain; over a photo, gradient, video or a positioned image it either knows nothing or is
// wrong (white on "white" over a dark hero). For those runs the screenshot decides: the pixels in
// the text's line boxes, minus the glyphs, are the background a visitor sees, and its worst
// percentile against the text colour is the contrast reported.

import type { ContrastProbe } from "../gatherers/accessibility";
import type { Box, Extraction } from "../model";

type LowContrast = Extraction["accessibility"]["lowContrast"][number];

/** Pixels read per probe at most: enough for a few lines of text, bounded on a huge heading. */
const MAX_PIXELS_PER_PROBE = 60_000;
/**
 * A pixel is taken for glyph when it is nearer the text colour than this share of the way to the
 * box's median colour (mostly background): anti-aliased strokes blend the two, and a fixed band
 * would either leave those blends in (a dark photo looks lighter than it is) or swallow a
 * background merely near the text colour — the very case to report. Never looser than GLYPH_MIN.
 */
const GLYPH_SHARE = 0.5;
const GLYPH_MIN = 12;
/** When more of the box than this is the text colour, the background is that colour. */
const MOSTLY_TEXT_COLOUR = 0.6;
/** The background percentiles compared with the text colour: the darkest and lightest tenth. */
const LOW = 0.1;
const HIGH = 0.9;
/** Backgrounds within this contrast of each other look the same (a flat colour, JPEG noise). */
const FLAT = 1.15;

const LINEAR = new Float64Array(256).map((_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const luminance = (r: number, g: number, b: number) => 0.2126 * LINEAR[r]! + 0.7152 * LINEAR[g]! + 0.0722 * LINEAR[b]!;
const ratioOf = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
const toHex = (r: number, g: number, b: number) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
const round2 = (v: number) => Math.round(v * 100) / 100;

function parseHex(hex: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(hex);
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : null;
}

interface Region {
  probe: number;
  box: Box;
  rgb: Uint8Array;
}

export interface PaintedMeasurement {
  /** The worst contrast between the text colour and its painted background's low and high percentiles. */
  ratio: number;
  /** The measured background pixel behind that worst ratio. */
  bg: string;
  /** Whether the background is one flat colour (low and high percentiles alike). */
  flat: boolean;
  /** The median background pixel. */
  median: string;
}

/** Boxes inside the image, cut so one probe never reads more than MAX_PIXELS_PER_PROBE. */
function regionsFor(probes: ContrastProbe[], width: number, height: number): Region[] {
  const regions: Region[] = [];
  probes.forEach((probe, i) => {
    let budget = MAX_PIXELS_PER_PROBE;
    for (const b of probe.boxes) {
      const x = Math.max(0, Math.round(b.x));
      const y = Math.max(0, Math.round(b.y));
      const h = Math.min(height, Math.round(b.y + b.height)) - y;
      let w = Math.min(width, Math.round(b.x + b.width)) - x;
      if (w < 2 || h < 2 || budget <= 0) continue;
      w = Math.min(w, Math.max(2, Math.floor(budget / h)));
      budget -= w * h;
      regions.push({ probe: i, box: { x, y, width: w, height: h }, rgb: new Uint8Array(w * h * 3) });
    }
  });
  return regions;
}

/** Reads the probes' boxes out of the screenshot, one row at a time (the capture's single decode pass). */
export function createPaintedSampler(probes: ContrastProbe[], width: number, height: number) {
  const regions = regionsFor(probes, width, height);
  return {
    push(row: Uint8Array | Uint8ClampedArray, y: number, channels: number) {
      for (const r of regions) {
        const dy = y - r.box.y;
        if (dy < 0 || dy >= r.box.height) continue;
        const colour = channels >= 3;
        for (let dx = 0; dx < r.box.width; dx++) {
          const src = (r.box.x + dx) * channels;
          if (src + channels > row.length) break; // an image narrower than the viewport
          const dst = (dy * r.box.width + dx) * 3;
          r.rgb[dst] = row[src]!;
          r.rgb[dst + 1] = row[colour ? src + 1 : src]!;
          r.rgb[dst + 2] = row[colour ? src + 2 : src]!;
        }
      }
    },
    /** One measurement per probe, null where too little background shows to judge. */
    finish(): (PaintedMeasurement | null)[] {
      return probes.map((probe, i) =>
        measureProbe(
          probe,
          regions.filter((r) => r.probe === i),
        ),
      );
    },
  };
}

/** A value of 0..255 counted in `hist`: the one at position `k` of their ascending order. */
function valueAt(hist: Uint32Array, k: number): number {
  let seen = 0;
  for (let v = 0; v < hist.length; v++) {
    seen += hist[v]!;
    if (seen > k) return v;
  }
  return 0;
}

/**
 * Marks the pixels within `radius` (a square) of a glyph core. Done as two passes, along rows then
 * along columns, instead of looking at every neighbour of every pixel.
 */
function nearGlyph(core: Uint8Array, w: number, h: number, radius: number): Uint8Array {
  const along = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      if (!core[row + x]) continue;
      for (let xx = Math.max(0, x - radius); xx <= Math.min(w - 1, x + radius); xx++) along[row + xx] = 1;
    }
  }
  const near = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!along[y * w + x]) continue;
      for (let yy = Math.max(0, y - radius); yy <= Math.min(h - 1, y + radius); yy++) near[yy * w + x] = 1;
    }
  }
  return near;
}

/** Luminance sorts first (to 2^-28), the colour breaks ties; both fit one double exactly. */
const COLOUR_SPAN = 2 ** 24;
const LUM_STEPS = 2 ** 28;

function measureProbe(probe: ContrastProbe, regions: Region[]): PaintedMeasurement | null {
  const fg = parseHex(probe.fg);
  if (!fg || regions.length === 0) return null;
  // Glyph cores are the pixels near the text colour; their anti-aliased rim is a blend of text and
  // background, so it goes too (one pixel, two for large text).
  const radius = probe.sizePx >= 24 ? 2 : 1;
  const distances = regions.map(({ rgb }) => {
    const d = new Uint8Array(rgb.length / 3);
    for (let p = 0; p < d.length; p++) {
      d[p] = Math.max(Math.abs(rgb[p * 3]! - fg[0]), Math.abs(rgb[p * 3 + 1]! - fg[1]), Math.abs(rgb[p * 3 + 2]! - fg[2]));
    }
    return d;
  });
  const hist = new Uint32Array(256);
  let total = 0;
  for (const d of distances) {
    for (let p = 0; p < d.length; p++) hist[d[p]!]!++;
    total += d.length;
  }
  const glyphDistance = Math.max(GLYPH_MIN, GLYPH_SHARE * valueAt(hist, Math.floor(total / 2)));
  let cores = 0;
  const cored = regions.map(({ box }, i) => {
    const d = distances[i]!;
    const core = new Uint8Array(d.length);
    for (let p = 0; p < d.length; p++) {
      core[p] = d[p]! <= glyphDistance ? 1 : 0;
      cores += core[p]!;
    }
    return nearGlyph(core, box.width, box.height, radius);
  });
  // Glyphs never cover most of their line boxes: when they seem to, the background itself is
  // (nearly) the text colour, and every pixel is background.
  const everyPixel = total > 0 && cores / total > MOSTLY_TEXT_COLOUR;
  const keys = new Float64Array(total);
  let n = 0;
  regions.forEach(({ rgb }, i) => {
    const near = cored[i]!;
    for (let p = 0; p < near.length; p++) {
      if (near[p] && !everyPixel) continue;
      const r = rgb[p * 3]!;
      const g = rgb[p * 3 + 1]!;
      const b = rgb[p * 3 + 2]!;
      keys[n++] = Math.floor(luminance(r, g, b) * LUM_STEPS) * COLOUR_SPAN + ((r << 16) | (g << 8) | b);
    }
  });
  // Mostly glyph: too little background left to measure reliably.
  if (n < Math.max(30, total * 0.2)) return null;
  const sorted = keys.subarray(0, n).sort();
  const colourAt = (q: number) => sorted[Math.min(n - 1, Math.floor(q * (n - 1)))]! % COLOUR_SPAN;
  const channels = (c: number) => [(c >> 16) & 255, (c >> 8) & 255, c & 255] as const;
  const lumOf = (c: number) => luminance(...channels(c));
  const fgLum = luminance(fg[0], fg[1], fg[2]);
  const low = colourAt(LOW);
  const high = colourAt(HIGH);
  const lowRatio = ratioOf(fgLum, lumOf(low));
  const highRatio = ratioOf(fgLum, lumOf(high));
  return {
    ratio: round2(Math.min(lowRatio, highRatio)),
    bg: toHex(...channels(lowRatio <= highRatio ? low : high)),
    flat: ratioOf(lumOf(low), lumOf(high)) < FLAT,
    median: toHex(...channels(colourAt(0.5))),
  };
}

/**
 * The low-contrast list from the probes: the CSS verdict where the painted background is the flat
 * colour CSS named, the pixels' verdict where something else is painted there, and nothing where
 * neither could be measured. Worst first, at most 40.
 */
export function decideLowContrast(probes: ContrastProbe[], measured: (PaintedMeasurement | null)[]): LowContrast[] {
  const out: LowContrast[] = [];
  probes.forEach((probe, i) => {
    const m = measured[i] ?? null;
    const css = probe.css;
    const cssVerdict = (): LowContrast | null =>
      css && css.ratio + 1e-9 < probe.required
        ? { text: probe.text, ratio: css.ratio, required: probe.required, fg: probe.fg, bg: css.bg, method: "css" }
        : null;
    if (!m) {
      const v = cssVerdict();
      if (v) out.push(v);
      return;
    }
    if (css && m.flat && sameColour(css.bg, m.median)) {
      const v = cssVerdict();
      if (v) out.push(v);
      return;
    }
    if (m.ratio + 1e-9 < probe.required)
      out.push({ text: probe.text, ratio: m.ratio, required: probe.required, fg: probe.fg, bg: m.bg, method: "pixels" });
  });
  return out.sort((a, b) => a.ratio - b.ratio).slice(0, 40);
}

function sameColour(a: string, b: string): boolean {
  const x = parseHex(a);
  const y = parseHex(b);
  return !!x && !!y && ratioOf(luminance(...x), luminance(...y)) < FLAT;
}
