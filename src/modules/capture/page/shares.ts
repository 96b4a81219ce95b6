// Weighted histograms: how much of something (area, characters) each value accounts for.

import type { PaletteEntry } from "../model";

export function tally<K>(m: Map<K, number>, key: K, w: number) {
  m.set(key, (m.get(key) ?? 0) + w);
}

/** The heaviest `limit` colours with their share of the whole histogram (shares of all entries sum to 1). */
export function toShares(m: Map<string, number>, limit: number): PaletteEntry[] {
  const total = [...m.values()].reduce((a, b) => a + b, 0);
  if (total <= 0) return [];
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, w]) => ({ hex: key, share: Math.round((w / total) * 10000) / 10000 }));
}

export function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
