// Palette roles from what the capture measured: the page background and body text (largest areas
// of the DOM's background and text palettes) and the brand colours, primary and secondary, from
// the salience-weighted chromatic colours (buttons, links, headings, icons, rims, badges). Pure:
// the capture calls it once the page has been measured; similarity compares its output.

import type { PaletteEntry } from "#server/modules/capture/model";
import { deltaE2000, hexToLab, type Lab } from "./color";
import { deltaToSimilarity } from "./palette-similarity";

export interface PaletteRoles {
  background: string | null;
  text: string | null;
  primary: string | null;
  secondary: string | null;
}

/** CIELAB chroma below which a colour reads as a grey (tinted greys like #f8f9fa are ~1-3). */
const MIN_CHROMA = 12;
/** Shades within this CIEDE2000 are one brand colour (a button and its darker border). */
const SAME_COLOUR = 10;
/** A secondary brand colour must be at least this far from the primary. */
const DISTINCT = 15;

const chroma = (lab: Lab) => Math.hypot(lab[1], lab[2]);

export function paletteRoles(palette: { background: PaletteEntry[]; text: PaletteEntry[]; salient?: PaletteEntry[] }): PaletteRoles {
  const clusters: { hex: string; lab: Lab; weight: number }[] = [];
  for (const entry of palette.salient ?? []) {
    const lab = hexToLab(entry.hex);
    if (!lab || chroma(lab) < MIN_CHROMA || !(entry.share > 0)) continue;
    const home = clusters.find((c) => deltaE2000(c.lab, lab) < SAME_COLOUR);
    if (home) home.weight += entry.share;
    else clusters.push({ hex: entry.hex, lab, weight: entry.share });
  }
  clusters.sort((p, q) => q.weight - p.weight);
  const primary = clusters[0] ?? null;
  const secondary = primary ? (clusters.slice(1).find((c) => deltaE2000(c.lab, primary.lab) >= DISTINCT) ?? null) : null;
  return {
    background: palette.background[0]?.hex ?? null,
    text: palette.text[0]?.hex ?? null,
    primary: primary?.hex ?? null,
    secondary: secondary?.hex ?? null,
  };
}

/** Weights of each role in rolesSimilarity: the brand colour is what a recolour changes. */
export const ROLE_WEIGHTS = { primary: 0.55, secondary: 0.15, background: 0.15, text: 0.15 } as const;

function roleSimilarity(a: string | null, b: string | null, oneMissing: number): number {
  if (a === null && b === null) return 1;
  if (a === null || b === null) return oneMissing;
  const la = hexToLab(a);
  const lb = hexToLab(b);
  return la && lb ? deltaToSimilarity(deltaE2000(la, lb)) : 0;
}

/**
 * Role by role, each colour pair through the same ΔE00 curve as the area palettes. A brand colour
 * on one page and none on the other is a difference (0); a second brand colour on only one page
 * is half of one, since which colour counts as "secondary" is the least certain reading.
 */
export function rolesSimilarity(
  a: PaletteRoles,
  b: PaletteRoles,
): { primary: number; secondary: number; background: number; text: number; roles: number } {
  const primary = roleSimilarity(a.primary, b.primary, 0);
  const secondary = roleSimilarity(a.secondary, b.secondary, 0.5);
  const background = roleSimilarity(a.background, b.background, 0);
  const text = roleSimilarity(a.text, b.text, 0);
  const roles =
    ROLE_WEIGHTS.primary * primary + ROLE_WEIGHTS.secondary * secondary + ROLE_WEIGHTS.background * background + ROLE_WEIGHTS.text * text;
  return { primary, secondary, background, text, roles };
}
