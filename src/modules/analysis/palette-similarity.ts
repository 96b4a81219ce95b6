// How alike two palettes look: an earth-mover distance between the two share distributions with
// CIEDE2000 as the ground distance, then mapped onto [0, 1].
//
// Palettes hold at most ~8 colours, so a greedy transport (always ship along the cheapest
// remaining pair) is within a few percent of the optimum and fully deterministic.

import { deltaE2000, hexToLab, type Lab } from "#server/lib/image/color";

export interface WeightedColor {
  hex: string;
  share: number;
}

/**
 * ΔE00 at which similarity halves. ~2 is a just-noticeable difference; by ~12 two colours read
 * as "related but different" (navy vs royal blue), so the half-point sits there.
 */
const HALF_SIMILARITY_DELTA_E = 12;

interface Mass {
  lab: Lab;
  share: number;
}

function normalise(palette: WeightedColor[]): Mass[] {
  const masses: Mass[] = [];
  for (const entry of palette) {
    const lab = hexToLab(entry.hex);
    if (!lab || !(entry.share > 0)) continue;
    masses.push({ lab, share: entry.share });
  }
  const total = masses.reduce((s, m) => s + m.share, 0);
  return total > 0 ? masses.map((m) => ({ lab: m.lab, share: m.share / total })) : [];
}

/** Share-weighted mean CIEDE2000 needed to turn one palette into the other (0 = same colours). */
export function paletteDistance(a: WeightedColor[], b: WeightedColor[]): number | null {
  const pa = normalise(a);
  const pb = normalise(b);
  if (pa.length === 0 || pb.length === 0) return null;
  const pairs: { i: number; j: number; d: number }[] = [];
  for (let i = 0; i < pa.length; i++) {
    for (let j = 0; j < pb.length; j++) pairs.push({ i, j, d: deltaE2000(pa[i]!.lab, pb[j]!.lab) });
  }
  pairs.sort((p, q) => p.d - q.d || p.i - q.i || p.j - q.j);
  const supply = pa.map((m) => m.share);
  const demand = pb.map((m) => m.share);
  let cost = 0;
  let moved = 0;
  for (const { i, j, d } of pairs) {
    const flow = Math.min(supply[i]!, demand[j]!);
    if (flow <= 0) continue;
    supply[i] = supply[i]! - flow;
    demand[j] = demand[j]! - flow;
    cost += flow * d;
    moved += flow;
    if (moved >= 1 - 1e-9) break;
  }
  return cost;
}

/** ΔE → similarity: 1 at 0, 0.5 at HALF_SIMILARITY_DELTA_E, falling smoothly towards 0. */
export function deltaToSimilarity(delta: number): number {
  return 1 / (1 + (delta / HALF_SIMILARITY_DELTA_E) ** 1.5);
}

/** null when either palette is empty (nothing to compare, not "different"). */
export function paletteSimilarity(a: WeightedColor[], b: WeightedColor[]): number | null {
  const d = paletteDistance(a, b);
  return d === null ? null : deltaToSimilarity(d);
}
