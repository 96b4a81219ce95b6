// Palette roles from what the capture measured: the page background and body text (largest areas
// of the DOM's background and text palettes) and the brand colours, primary and secondary, from
// the salience-weighted chromatic colours (buttons, links, headings, icons, rims, badges). Pure:
// the capture calls it once the page has been measured; analysis compares its output, and names
// the roles of captures stored without them.

import { deltaE2000, hexToLab, type Lab } from "#server/lib/image/color";
import type { PaletteEntry } from "../model";

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
