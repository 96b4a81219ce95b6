// Copy gatherer: the visible text in reading order, its headline, length and Flesch reading ease.

import type { Extraction } from "../model";
import type { Scan } from "../page/scan";
import { clean } from "../page/strings";
import type { Run } from "../page/text-runs";

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
  return {
    headline: prominentHeadline(scan, runs) || h1?.text || "",
    visibleText,
    wordCount: words.length,
    readability: readingEase(blocks, words),
  };
}

/**
 * Page chrome a visitor looks past for the page's message: navigation (the brand link included),
 * controls, footers and dialogs, and cookie or consent banners by their usual names.
 */
const CHROME =
  "nav,[role=navigation],[role=menubar],[role=menu],header a,footer,[role=contentinfo],button,[role=button],label,select,[role=dialog],[aria-modal=true],[role=alertdialog]";
const CONSENT = /cookie|consent|gdpr|cmp-|onetrust|didomi|cky-|cc-banner/i;

function isChrome(el: Element): boolean {
  if (el.closest(CHROME)) return true;
  for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
    if (CONSENT.test(a.id) || CONSENT.test(typeof a.className === "string" ? a.className : "")) return true;
  }
  return false;
}

/** The run's line as a reader sees it: the text of its nearest block (a heading with an <em> inside reads as one line). */
function blockOf(scan: Scan, el: Element): Element {
  let block = el;
  while (block.parentElement && block.parentElement !== document.body && /^(inline|contents)$/.test(scan.style(block).display))
    block = block.parentElement;
  return block;
}

/**
 * How strongly a run calls for the eye: its size, weighted by boldness (a 700 line reads as about
 * 1.3 times a 400 one of the same size), a little less the further down the first screen it sits.
 */
const prominence = (r: Run, vh: number) => r.sizePx * Math.sqrt(Math.max(100, r.weight) / 400) * (1 - 0.25 * Math.min(1, r.top / vh));

/**
 * The headline: the most prominent text above the fold — what a visitor reads first, whatever
 * element it is set in (a hero line is often a div, while the first h2 may be a section label).
 * Runs of under two characters or without a letter (a big "99%" is a figure, not a line) and page chrome do not count; near-equal candidates (within 2 %)
 * go to the one first in the source.
 */
function prominentHeadline(scan: Scan, runs: Run[]): string {
  let best: { run: Run; score: number } | null = null;
  for (const r of runs) {
    if (r.top >= scan.vh || r.chars < 2 || !/\p{L}/u.test(r.text)) continue;
    const score = prominence(r, scan.vh);
    if (best && score <= best.score * 1.02) {
      // Near-equal: source order decides.
      if (score < best.score * 0.98 || !(r.el.compareDocumentPosition(best.run.el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    }
    if (isChrome(r.el) || !scan.rendered(r.el)) continue;
    best = { run: r, score };
  }
  if (!best) return "";
  const block = blockOf(scan, best.run.el);
  return clean((block as HTMLElement).innerText || block.textContent || best.run.text, 200);
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
