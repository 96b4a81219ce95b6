// Text helpers for comparing copy between two captures of one page.
import { normaliseText, textKey } from "#server/lib/text";

export { normaliseText, textKey };

function wordSet(s: string): Set<string> {
  return new Set(textKey(s).split(" ").filter(Boolean));
}

/** Dice overlap of the words of two strings, 0..1. */
export function wordSimilarity(a: string, b: string): number {
  const wa = wordSet(a);
  const wb = wordSet(b);
  if (wa.size === 0 && wb.size === 0) return 1;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  return (2 * common) / (wa.size + wb.size);
}

/** One line for a summary: quoted, cut at a word boundary. */
export function q(text: string, max = 70): string {
  const line = normaliseText(text);
  if (line.length <= max) return `“${line}”`;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `“${(space > max / 2 ? cut.slice(0, space) : cut).trim()}…”`;
}

/** Multiset difference by key: what only `a` has and what only `b` has, in their original order. */
export function multisetDiff<T>(a: T[], b: T[], key: (x: T) => string): { onlyA: T[]; onlyB: T[] } {
  const counts = new Map<string, number>();
  for (const x of b) counts.set(key(x), (counts.get(key(x)) ?? 0) + 1);
  const onlyA: T[] = [];
  for (const x of a) {
    const k = key(x);
    const n = counts.get(k) ?? 0;
    if (n > 0) counts.set(k, n - 1);
    else onlyA.push(x);
  }
  const countsA = new Map<string, number>();
  for (const x of a) countsA.set(key(x), (countsA.get(key(x)) ?? 0) + 1);
  const onlyB: T[] = [];
  for (const x of b) {
    const k = key(x);
    const n = countsA.get(k) ?? 0;
    if (n > 0) countsA.set(k, n - 1);
    else onlyB.push(x);
  }
  return { onlyA, onlyB };
}
