// Colour arithmetic the agents share: hue families for trend mining, WCAG contrast for tokens
// and for the oracle's features. The maths is culori's, as everywhere else in the app.

import { converter, formatHex, interpolate, modeHsl, modeLrgb, modeRgb, parseHex, useMode, wcagContrast, wcagLuminance } from "culori/fn";

useMode(modeRgb);
useMode(modeLrgb);
useMode(modeHsl);
const toHsl = converter("hsl");

export const HEX = /^#[0-9a-f]{6}$/;

export function normalizeHex(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  if (!/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/.test(v)) return null;
  return formatHex(parseHex(v)!);
}

export function rgbOf(hex: string): [number, number, number] {
  const c = parseHex(hex);
  return c ? [Math.round(c.r * 255), Math.round(c.g * 255), Math.round(c.b * 255)] : [0, 0, 0];
}

export function hexOf([r, g, b]: [number, number, number]): string {
  return formatHex({ mode: "rgb", r: r / 255, g: g / 255, b: b / 255 });
}

/** Hue in degrees (0 for greys), saturation and lightness 0..1. */
export function hsl(hex: string): { h: number; s: number; l: number } {
  const c = toHsl(parseHex(hex));
  return c ? { h: c.h ?? 0, s: c.s, l: c.l } : { h: 0, s: 0, l: 0 };
}

/** WCAG relative luminance (NaN for what is not a hex colour). */
export function luminance(hex: string): number {
  const c = parseHex(hex);
  return c ? wcagLuminance(c) : Number.NaN;
}

export function contrast(a: string, b: string): number {
  const ca = parseHex(a);
  const cb = parseHex(b);
  return ca && cb ? wcagContrast(ca, cb) : Number.NaN;
}

/** `t` of the way from `a` to `b` in sRGB (`a` itself when either is not a hex colour). */
export function mix(a: string, b: string, t: number): string {
  const ca = parseHex(a);
  const cb = parseHex(b);
  return ca && cb ? formatHex(interpolate([ca, cb], "rgb")(t)) : a;
}

/** A colour reads as an accent (not a grey, near-white or near-black). */
export function isChromatic(hex: string): boolean {
  const { s, l } = hsl(hex);
  return s >= 0.25 && l > 0.12 && l < 0.92;
}

export const HUE_FAMILIES = ["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"] as const;
export type HueFamily = (typeof HUE_FAMILIES)[number] | "monochrome";

export function hueFamily(hex: string): HueFamily {
  if (!isChromatic(hex)) return "monochrome";
  const { h } = hsl(hex);
  if (h < 15 || h >= 345) return "red";
  if (h < 45) return "orange";
  if (h < 70) return "yellow";
  if (h < 165) return "green";
  if (h < 195) return "teal";
  if (h < 255) return "blue";
  if (h < 290) return "purple";
  return "pink";
}
