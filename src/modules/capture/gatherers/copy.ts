// Copy gatherer: the visible text in reading order, its headline, length and Flesch reading ease.

import type { Extraction } from "../model";
import type { Scan } from "../page/scan";
import { clean } from "../page/strings";

export type CopyMeasurement = Extraction["copy"];

/** Characters of visible text kept, about: enough to compare wording, bounded for huge pages. */
const MAX_TEXT = 40000;

export function gatherCopy(scan: Scan): CopyMeasurement {
  const runs = scan.runs();
  const blocks: string[] = [];
  let length = 0;
  for (const r of runs) {
    const t = clean(r.text, 2000);
    if (!t || length > MAX_TEXT) continue;
    blocks.push(t);
    length += t.length + 1;
  }
  const visibleText = blocks.join("\n");
  const words = visibleText.match(/[A-Za-zÀ-ÿ0-9'’-]+/g) ?? [];
  const h1 = scan.headings().find((h) => h.level === 1) ?? scan.headings()[0];
  const biggestAboveFold = runs.filter((r) => r.top < scan.vh).sort((a, b) => b.sizePx - a.sizePx)[0];
  return {
    headline: h1?.text || (biggestAboveFold ? clean(biggestAboveFold.text, 200) : ""),
    visibleText,
    wordCount: words.length,
    readability: readingEase(blocks, words),
  };
}

/** English syllables, by vowel groups with the usual silent-e endings removed. */
function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, "");
  if (!w) return 0;
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, "").replace(/^y/, "");
  const groups = trimmed.match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups ? groups.length : 1);
}

/** Flesch reading ease, clamped to 0..100; each block (heading, button, paragraph) ends a sentence even without a full stop. */
function readingEase(blocks: string[], words: string[]): number {
  const alphaWords = words.filter((w) => /[A-Za-zÀ-ÿ]/.test(w));
  const sentences = blocks.reduce((n, t) => n + Math.max(1, (t.match(/[.!?]+(\s|$)/g) ?? []).length), 0);
  if (alphaWords.length === 0 || sentences === 0) return 0;
  const syl = alphaWords.reduce((a, w) => a + syllables(w), 0);
  const flesch = 206.835 - 1.015 * (alphaWords.length / sentences) - 84.6 * (syl / alphaWords.length);
  return Math.round(Math.max(0, Math.min(100, flesch)) * 10) / 10;
}
