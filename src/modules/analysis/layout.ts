// Layout likeness from the DOM side: what the page is made of (the order of header, hero,
// sections, footer), where those blocks sit down the page, how many columns the content uses,
// how tall the page is, and the spacing/radius tokens. The pixel side (SSIM of thumbnails) is
// blended in by similarity.ts.

import type { Extraction } from "#server/modules/capture/model";

type Region = Extraction["layout"]["regions"][number];
type Kind = Region["kind"] | "none";

const PROFILE_BINS = 48;

/** Blocks in reading order. `main` is a wrapper around the sections, so it only counts when alone. */
export function regionSequence(ex: Extraction): Kind[] {
  const regions = ex.layout.regions.filter((r) => r.box.height > 0);
  const blocks = regions.filter((r) => r.kind !== "main");
  const used = blocks.length > 0 ? blocks : regions;
  return [...used].sort((p, q) => p.box.y - q.box.y || p.box.x - q.box.x).map((r) => r.kind);
}

/**
 * The page cut into PROFILE_BINS horizontal slices, each labelled with the most specific
 * (shortest) region covering it. Positions are relative to the page height so a 3000 px and a
 * 3600 px version of the same design line up.
 */
export function regionProfile(ex: Extraction, bins = PROFILE_BINS): Kind[] {
  const height = Math.max(1, ex.capturedHeight || ex.pageHeight);
  const labels: Kind[] = [];
  for (let b = 0; b < bins; b++) {
    const y = ((b + 0.5) / bins) * height;
    let best: Region | null = null;
    for (const r of ex.layout.regions) {
      if (r.box.height <= 0 || y < r.box.y || y >= r.box.y + r.box.height) continue;
      if (!best || (best.kind === "main" && r.kind !== "main") || (r.kind !== "main" && r.box.height < best.box.height)) {
        best = r;
      }
    }
    labels.push(best ? best.kind : "none");
  }
  return labels;
}

export function editSimilarity<T>(a: readonly T[], b: readonly T[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost));
    }
    prev = cur;
  }
  return 1 - prev[b.length]! / Math.max(a.length, b.length);
}

/** min/max of two magnitudes; 1 when both are ~0. */
export function ratioSimilarity(a: number, b: number, floor = 0): number {
  const x = Math.max(a, floor);
  const y = Math.max(b, floor);
  const hi = Math.max(x, y);
  return hi <= 0 ? 1 : Math.min(x, y) / hi;
}

export interface StructureScores {
  sequence: number;
  profile: number;
  columns: number;
  height: number;
  tokens: number;
  structure: number;
}

/**
 * Weights: order of blocks and where they sit (0.3 + 0.3) is what a designer sketches first;
 * column grid (0.15) next; page length (0.1) and spacing/radius tokens (0.15) are finishing detail.
 */
export function structureSimilarity(a: Extraction, b: Extraction): StructureScores {
  const seqA = regionSequence(a);
  const seqB = regionSequence(b);
  const hasRegions = seqA.length > 0 || seqB.length > 0;
  const sequence = editSimilarity(seqA, seqB);
  const profA = regionProfile(a);
  const profB = regionProfile(b);
  let same = 0;
  for (let i = 0; i < profA.length; i++) if (profA[i] === profB[i]) same++;
  const profile = same / profA.length;
  const columns = ratioSimilarity(a.layout.columns, b.layout.columns, 1);
  // Square root: a page 30% longer is still laid out alike; 3x longer is a different page.
  const height = Math.sqrt(ratioSimilarity(a.pageHeight, b.pageHeight, 1));
  // Small tokens (0 vs 4 px radius) are treated as equally "square"; 8 px floors keep noise out.
  const tokens =
    0.5 * ratioSimilarity(a.layout.radiusPx, b.layout.radiusPx, 4) + 0.5 * ratioSimilarity(a.layout.spacingPx, b.layout.spacingPx, 8);
  const parts = hasRegions
    ? [
        [sequence, 0.3],
        [profile, 0.3],
        [columns, 0.15],
        [height, 0.1],
        [tokens, 0.15],
      ]
    : [
        [columns, 0.15 / 0.4],
        [height, 0.1 / 0.4],
        [tokens, 0.15 / 0.4],
      ];
  const structure = parts.reduce((s, [v, w]) => s + v! * w!, 0);
  return { sequence, profile, columns, height, tokens, structure };
}
