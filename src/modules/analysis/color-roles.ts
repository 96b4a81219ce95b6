// How alike two pages' palette roles are (background, body text, primary and secondary brand
// colours; the capture names them, capture/phases/palette-roles.ts): role by role through the same
// ΔE00 curve as the area palettes.

import { deltaE2000, hexToLab } from "#server/lib/image/color";
import type { PaletteRoles } from "#server/modules/capture/public";
import { deltaToSimilarity } from "./palette-similarity";

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
