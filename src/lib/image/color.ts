// Colour maths shared by palette extraction, palette roles and similarity, change detection and the
// contrast rules: a thin layer over culori (the same library the in-page gatherers use), in the
// shapes the server's callers want: 0..255 channel tuples, "#rrggbb" strings and CIELAB (D65) triples.

import {
  converter,
  differenceCiede2000,
  formatHex,
  modeLab65,
  modeLrgb,
  modeRgb,
  parseHex,
  useMode,
  wcagContrast,
  wcagLuminance,
  type Lab65,
  type Rgb as CuloriRgb,
} from "culori/fn";

export type Rgb = readonly [number, number, number];
export type Lab = readonly [number, number, number];

useMode(modeRgb);
useMode(modeLrgb);
useMode(modeLab65);
const toLab65 = converter("lab65");
const toRgb = converter("rgb");
const ciede2000 = differenceCiede2000();

const rgbColor = (r: number, g: number, b: number): CuloriRgb => ({ mode: "rgb", r: r / 255, g: g / 255, b: b / 255 });
const labColor = (lab: Lab): Lab65 => ({ mode: "lab65", l: lab[0], a: lab[1], b: lab[2] });

/** "#rgb" or "#rrggbb" (the "#" optional); anything else, alpha hex included, is not a colour here. */
export function hexToRgb(hex: string): Rgb | null {
  const text = hex.trim();
  if (!/^#?(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(text)) return null;
  const c = parseHex(text);
  return c ? [Math.round(c.r * 255), Math.round(c.g * 255), Math.round(c.b * 255)] : null;
}

export function rgbToHex(r: number, g: number, b: number): string {
  return formatHex(rgbColor(r, g, b));
}

// Luminance is linear in the linearised channels, so one 256-entry table per channel gives
// culori's exact figure for 8-bit colours without a conversion per pixel: the screenshot sampler
// asks for it 120 000 times per page.
const channelTable = (channel: "r" | "g" | "b") => {
  const table = new Float64Array(256);
  for (let i = 0; i < 256; i++) table[i] = wcagLuminance({ mode: "rgb", r: 0, g: 0, b: 0, [channel]: i / 255 });
  return table;
};
const LUM_R = channelTable("r");
const LUM_G = channelTable("g");
const LUM_B = channelTable("b");
const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

/** WCAG relative luminance, 0 (black) .. 1 (white); channels are rounded to bytes. */
export function relativeLuminance(r: number, g: number, b: number): number {
  return LUM_R[byte(r)]! + LUM_G[byte(g)]! + LUM_B[byte(b)]!;
}

/** WCAG contrast ratio between two colours, 1..21. */
export function contrastRatio(a: Rgb | string, b: Rgb | string): number {
  const ca = typeof a === "string" ? hexToRgb(a) : a;
  const cb = typeof b === "string" ? hexToRgb(b) : b;
  if (!ca || !cb) return Number.NaN;
  return wcagContrast(rgbColor(ca[0], ca[1], ca[2]), rgbColor(cb[0], cb[1], cb[2]));
}

/** CIELAB (D65) of an sRGB colour; channels 0..255, fractions allowed (a bucket's mean). */
export function rgbToLab(r: number, g: number, b: number): [number, number, number] {
  const lab = toLab65(rgbColor(r, g, b));
  return [lab.l, lab.a, lab.b];
}

export function hexToLab(hex: string): Lab | null {
  const rgb = hexToRgb(hex);
  return rgb ? rgbToLab(rgb[0], rgb[1], rgb[2]) : null;
}

/** The sRGB colour nearest a CIELAB (D65) one, each channel clipped to 0..255. */
export function labToRgb(L: number, a: number, b: number): [number, number, number] {
  const rgb = toRgb(labColor([L, a, b]));
  return [byte(rgb.r * 255), byte(rgb.g * 255), byte(rgb.b * 255)];
}

/** CIEDE2000 colour difference (kL = kC = kH = 1). */
export function deltaE2000(lab1: Lab, lab2: Lab): number {
  return ciede2000(labColor(lab1), labColor(lab2));
}

export function deltaE2000Hex(a: string, b: string): number {
  const la = hexToLab(a);
  const lb = hexToLab(b);
  if (!la || !lb) return Number.NaN;
  return deltaE2000(la, lb);
}

/** Walks L* of `colour` (hue and chroma kept) in `direction` until it reaches `target` against `other`. */
function walkLightness(colour: string, other: Rgb, direction: 1 | -1, target: number): string | null {
  const lab = hexToLab(colour);
  if (!lab) return null;
  for (let L = lab[0]; L >= 0 && L <= 100; L += direction) {
    const rgb = labToRgb(L, lab[1], lab[2]);
    if (contrastRatio(rgb, other) >= target) return rgbToHex(rgb[0], rgb[1], rgb[2]);
  }
  return null;
}

/**
 * The smallest change that makes `fg` on `bg` reach `target`: the text pushed further from its
 * background (darker text stays darker, light text gets lighter, same hue and chroma), or — when
 * the text is already at black/white — the background pushed the other way. Used to make contrast
 * fixes concrete: "use #5f6368 instead of #9aa0a6".
 */
export function contrastFix(fg: string, bg: string, target = 4.5): { fg: string; bg: string } | null {
  const f = hexToRgb(fg);
  const b = hexToRgb(bg);
  if (!f || !b) return null;
  const fgHex = rgbToHex(f[0], f[1], f[2]);
  const bgHex = rgbToHex(b[0], b[1], b[2]);
  if (contrastRatio(f, b) >= target) return { fg: fgHex, bg: bgHex };
  const lighterText = relativeLuminance(f[0], f[1], f[2]) >= relativeLuminance(b[0], b[1], b[2]);
  const newFg = walkLightness(fgHex, b, lighterText ? 1 : -1, target);
  if (newFg) return { fg: newFg, bg: bgHex };
  const newBg = walkLightness(bgHex, f, lighterText ? -1 : 1, target);
  return newBg ? { fg: fgHex, bg: newBg } : null;
}

/** contrastFix() limited to changing the text colour; null if that alone can't reach the target. */
export function adjustForContrast(fg: string, bg: string, target = 4.5): string | null {
  const fix = contrastFix(fg, bg, target);
  const b = hexToRgb(bg);
  return fix && b && fix.bg === rgbToHex(b[0], b[1], b[2]) ? fix.fg : null;
}
