// Contrast against what is painted. CSS only knows a background when it is a flat colour down the
// ancestor chain; over a photo, gradient, video or a positioned image it either knows nothing or is
// wrong (white on "white" over a dark hero). For those runs the screenshot decides: the pixels in
// the text's line boxes, minus the glyphs, are the background a visitor sees, and its worst
// percentile against the text colour is the contrast reported. Both colours are reported as a
// colour picker on the screenshot finds them: the background as measured around the glyphs, and
// the text as painted there — translucent text (its colour's alpha, its own and its ancestors'
// opacity) blended over that very background, not the colour the stylesheet declares.

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
/** Each percentile's colour is the mean of the pixels this share either side of it. */
const BAND = 0.05;
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

/** `ink` at `alpha` over `under`, source-over in sRGB as browsers composite text. */
const paintOver = (ink: readonly number[], alpha: number, under: readonly number[]): [number, number, number] =>
  [0, 1, 2].map((i) => Math.round(alpha * ink[i]! + (1 - alpha) * under[i]!)) as [number, number, number];

/** The share of the declared text colour that reaches the screen. */
const alphaOf = (probe: ContrastProbe) => Math.min(1, Math.max(0, probe.alpha ?? 1));

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
  /** The worst contrast between the text as painted and its painted background's low and high percentiles. */
  ratio: number;
  /** The text as painted over `bg`: the declared colour blended by its alpha and opacities. */
  fg: string;
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

/** The per-channel median of the regions' pixels (mostly background: glyphs cover a minority). */
function medianColour(regions: Region[]): [number, number, number] {
  const hists = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  let total = 0;
  for (const { rgb } of regions) {
    for (let p = 0; p < rgb.length; p += 3) {
      hists[0]![rgb[p]!]!++;
      hists[1]![rgb[p + 1]!]!++;
      hists[2]![rgb[p + 2]!]!++;
    }
    total += rgb.length / 3;
  }
  return hists.map((h) => valueAt(h, Math.floor(total / 2))) as [number, number, number];
}

function measureProbe(probe: ContrastProbe, regions: Region[]): PaintedMeasurement | null {
  const ink = parseHex(probe.ink ?? probe.fg);
  if (!ink || regions.length === 0) return null;
  const alpha = alphaOf(probe);
  // Glyph cores are the pixels near the colour the text paints (translucent text: over the box's
  // typical background); their anti-aliased rim is a blend of text and background, so it goes too
  // (one pixel, two for large text).
  const fg = alpha >= 1 ? ink : paintOver(ink, alpha, medianColour(regions));
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
  const channels = (c: number) => [(c >> 16) & 255, (c >> 8) & 255, c & 255] as const;
  // The colour at a percentile, averaged over the pixels around it: a single pixel of a grainy
  // photo carries the grain's tint, the band shows what the eye (and a picker's average) sees.
  const colourAt = (q: number): [number, number, number] => {
    const from = Math.max(0, Math.floor((q - BAND) * (n - 1)));
    const to = Math.min(n - 1, Math.ceil((q + BAND) * (n - 1)));
    const sum = [0, 0, 0];
    for (let k = from; k <= to; k++) {
      const c = channels(sorted[k]! % COLOUR_SPAN);
      for (let i = 0; i < 3; i++) sum[i]! += c[i]!;
    }
    return sum.map((v) => Math.round(v / (to - from + 1))) as [number, number, number];
  };
  const lumOf = (c: readonly number[]) => luminance(c[0]!, c[1]!, c[2]!);
  // Against each end of the background, the text as painted there: translucent text takes on
  // some of what is behind it, so its contrast shrinks with its alpha wherever it lies.
  const ends = [colourAt(LOW), colourAt(HIGH)].map((bg) => {
    const painted = alpha >= 1 ? ink : paintOver(ink, alpha, bg);
    return { bg, painted, ratio: ratioOf(lumOf(painted), lumOf(bg)) };
  });
  const worst = ends[0]!.ratio <= ends[1]!.ratio ? ends[0]! : ends[1]!;
  return {
    ratio: round2(worst.ratio),
    fg: toHex(...worst.painted),
    bg: toHex(...worst.bg),
    flat: ratioOf(lumOf(ends[0]!.bg), lumOf(ends[1]!.bg)) < FLAT,
    median: toHex(...colourAt(0.5)),
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
    const css = probe.css ? cssPair(probe, probe.css) : null;
    const cssVerdict = (): LowContrast | null =>
      css && css.ratio + 1e-9 < probe.required
        ? { text: probe.text, ratio: css.ratio, required: probe.required, fg: css.fg, bg: css.bg, method: "css" }
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
      out.push({ text: probe.text, ratio: m.ratio, required: probe.required, fg: m.fg, bg: m.bg, method: "pixels" });
  });
  return out.sort((a, b) => a.ratio - b.ratio).slice(0, 40);
}

/**
 * The CSS pair with the text as painted over the CSS background: every opacity on the way up
 * applied, where the page's own colour only carries the element's.
 */
function cssPair(probe: ContrastProbe, css: { bg: string; ratio: number }): { fg: string; bg: string; ratio: number } {
  const ink = probe.ink ? parseHex(probe.ink) : null;
  const under = parseHex(css.bg);
  if (!ink || !under || probe.alpha === undefined) return { fg: probe.fg, ...css };
  const painted = paintOver(ink, alphaOf(probe), under);
  return { fg: toHex(...painted), bg: css.bg, ratio: round2(ratioOf(luminance(...painted), luminance(...under))) };
}

function sameColour(a: string, b: string): boolean {
  const x = parseHex(a);
  const y = parseHex(b);
  return !!x && !!y && ratioOf(luminance(...x), luminance(...y)) < FLAT;
}
