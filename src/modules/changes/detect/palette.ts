// `palette` changes, read from the computed colours of the DOM (buttons, backgrounds, text), each
// weighted by painted area. The screenshot's pixel palette is not used here: photos, videos and
// carousel slides move it without any design change; what pixels show is the `visual` kind's job.

import { deltaE2000Hex, hexToRgb } from "#server/modules/analysis/public";
import type { Extraction, PaletteEntry } from "#server/modules/capture/model";
import type { DetectedChange as Change, Severity } from "../model";
import type { Volatility } from "#server/modules/capture/public";

type Group = "buttons" | "background" | "text";
// `same`: how close (ΔE00) counts as the same colour. Buttons are solid fills: a JND-sized margin.
// Text and backgrounds are measured while the page may still be fading things in (an element at
// 70% opacity reads as a lighter tint of its colour), so tints closer than ΔE 10 are not changes
// there; a real restyle of text or backgrounds is a bigger step than that.
const GROUPS: { key: Group; label: string; same: number }[] = [
  { key: "buttons", label: "Button colour", same: 5 },
  { key: "background", label: "Background colour", same: 10 },
  { key: "text", label: "Text colour", same: 10 },
];

/** A colour covering less of its group than this is an accent, not part of the palette. */
const MIN_SHARE = 0.03;
/** Still present at all: a colour that merely fell below MIN_SHARE was not "removed". */
const TRACE_SHARE = 0.005;
const BIG = 10;
/** RGB distance from the fg→bg line still read as a blend (rounding and sub-pixel text rendering). */
const BLEND_TOLERANCE = 6;

const pct = (share: number) => `${Math.round(share * 100)}%`;

function present(hex: string, list: PaletteEntry[], same: number): boolean {
  return list.some((e) => e.share >= TRACE_SHARE && deltaE2000Hex(hex, e.hex) <= same);
}

/**
 * `hex` is `fg` drawn partly transparent over `bg` (within a few RGB steps of the line between
 * them, strictly between the ends): how an element fading in is measured mid-animation.
 */
function isBlend(hex: string, fg: string, bg: string): boolean {
  const x = hexToRgb(hex);
  const f = hexToRgb(fg);
  const b = hexToRgb(bg);
  if (!x || !f || !b) return false;
  const d = [f[0] - b[0], f[1] - b[1], f[2] - b[2]];
  const len2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
  if (len2 < 400) return false; // fg and bg too close to tell a blend from either
  const alpha = ((x[0] - b[0]) * d[0]! + (x[1] - b[1]) * d[1]! + (x[2] - b[2]) * d[2]!) / len2;
  if (alpha <= 0.03 || alpha >= 0.97) return false;
  const off = Math.hypot(x[0] - (b[0] + alpha * d[0]!), x[1] - (b[1] + alpha * d[1]!), x[2] - (b[2] + alpha * d[2]!));
  return off <= BLEND_TOLERANCE;
}

/** Painted inside a part of the page that changes by itself (a slide's background, its button). */
function volatileColour(hex: string, v: Volatility): boolean {
  return v.colors.some((c) => deltaE2000Hex(hex, c) <= 3);
}

export function paletteChanges(before: Extraction, after: Extraction, v: Volatility): Change[] {
  const viewport = after.viewport;
  const out: Change[] = [];
  // Only when the probe saw fades running: a text or background colour that is a tint of another
  // of the page's colours over one of its backgrounds is an element caught mid-fade.
  const fgs = [...before.palette.text, ...after.palette.text, ...before.palette.buttons, ...after.palette.buttons].map((e) => e.hex);
  const bgs = [...before.palette.background, ...after.palette.background].map((e) => e.hex);
  const midFade = (key: Group, hex: string) =>
    v.fading && key !== "buttons" && fgs.some((f) => f !== hex && bgs.some((b) => b !== hex && isBlend(hex, f, b)));
  for (const { key, label, same } of GROUPS) {
    const lb = before.palette[key];
    const la = after.palette[key];
    const counts = (e: PaletteEntry, other: PaletteEntry[]) =>
      e.share >= MIN_SHARE && !present(e.hex, other, same) && !volatileColour(e.hex, v) && !midFade(key, e.hex);
    const removed = lb.filter((e) => counts(e, la));
    const added = la.filter((e) => counts(e, lb));
    // A colour gone and another come in the same role is one colour changed: pair them by share,
    // most prominent first ("the button blue became red").
    removed.sort((x, y) => y.share - x.share);
    added.sort((x, y) => y.share - x.share);
    const n = Math.min(removed.length, added.length);
    for (let i = 0; i < n; i++) {
      const b = removed[i]!;
      const a = added[i]!;
      const dE = deltaE2000Hex(b.hex, a.hex);
      const big = dE >= BIG;
      const severity: Severity = !big ? "low" : key === "buttons" || Math.max(a.share, b.share) >= 0.3 ? "high" : "medium";
      out.push({
        kind: "palette",
        severity,
        viewport,
        summary: `${label} ${b.hex} → ${a.hex} (ΔE ${dE.toFixed(1)}, ${pct(a.share)} of ${key})`,
        before: b.hex,
        after: a.hex,
        evidence: { deltaE: Math.round(dE * 10) / 10 },
      });
    }
    for (const b of removed.slice(n)) {
      out.push({
        kind: "palette",
        severity: b.share >= 0.2 ? "medium" : "low",
        viewport,
        summary: `${label} removed: ${b.hex} (was ${pct(b.share)} of ${key})`,
        before: b.hex,
        after: null,
        evidence: {},
      });
    }
    for (const a of added.slice(n)) {
      out.push({
        kind: "palette",
        severity: a.share >= 0.2 ? "medium" : "low",
        viewport,
        summary: `${label} added: ${a.hex} (${pct(a.share)} of ${key})`,
        before: null,
        after: a.hex,
        evidence: {},
      });
    }
  }
  return out;
}
