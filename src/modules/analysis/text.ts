// Likeness of the visible copy. Three views, because each alone misleads:
// - vocabulary: cosine of content-word frequencies (stop words out, sublinear tf) — same topic;
// - phrasing: overlap of 3-word shingles — the same sentences, not just the same words;
// - headline: the one line every visitor reads, compared by words and by letter trigrams so a
//   reworded headline still scores partially.

const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can do for from has have he her his how i if in into is it its " +
    "just me more my no not of on or our out so than that the their them then there these they this " +
    "to too up us was we were what when where which who why will with you your yours all any get " +
    "also about over only own same some such very s t don should now"
  ).split(" "),
);

/**
 * Words every site has (navigation labels, calls to action, legal footers). Two unrelated pages
 * share them, so they count for BOILERPLATE_WEIGHT of a content word in the vocabulary, and a
 * phrase made of nothing else ("learn more about", "all rights reserved") is not a shared phrase.
 */
const BOILERPLATE = new Set(
  (
    "home about contact blog news menu search login log sign signup register account cart shop " +
    "learn read see view more less next previous prev back top skip content main navigation nav toggle " +
    "close open click here now today free start started get try subscribe newsletter follow share " +
    "privacy policy terms conditions cookies cookie legal copyright reserved rights inc ltd llc " +
    "website site page pages posts post services products portfolio team careers jobs faq help support " +
    "facebook twitter instagram linkedin youtube github email phone call us"
  ).split(" "),
);
const BOILERPLATE_WEIGHT = 0.2;

/** Text beyond this many words adds nothing to the score but costs time on huge pages. */
const MAX_WORDS = 20_000;

export function words(text: string): string[] {
  const out =
    text
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  return out.length > MAX_WORDS ? out.slice(0, MAX_WORDS) : out;
}

function termVector(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) if (!STOP_WORDS.has(t) && t.length > 1) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const [t, c] of counts) counts.set(t, (1 + Math.log(c)) * (BOILERPLATE.has(t) ? BOILERPLATE_WEIGHT : 1));
  return counts;
}

export function cosine(a: Map<string, number>, b: Map<string, number>): number {
  if (a.size === 0 || b.size === 0) return a.size === b.size ? 1 : 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w !== undefined) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return dot / Math.sqrt(na * nb);
}

function shingles(tokens: string[], n: number): Set<string> {
  const out = new Set<string>();
  if (tokens.length < n) {
    if (tokens.length > 0) out.add(tokens.join(" "));
    return out;
  }
  for (let i = 0; i + n <= tokens.length; i++) {
    const gram = tokens.slice(i, i + n);
    if (gram.every((t) => BOILERPLATE.has(t) || STOP_WORDS.has(t))) continue;
    out.add(gram.join(" "));
  }
  return out;
}

/** Dice coefficient: 2|A∩B| / (|A|+|B|); 1 for two empty sets. */
export function dice<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return (2 * both) / (a.size + b.size);
}

function trigrams(text: string): Set<string> {
  const s = ` ${words(text).join(" ")} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}

export function headlineSimilarity(a: string, b: string): number {
  const wa = new Set(words(a));
  const wb = new Set(words(b));
  if (wa.size === 0 && wb.size === 0) return 1;
  if (wa.size === 0 || wb.size === 0) return 0;
  return 0.5 * dice(wa, wb) + 0.5 * dice(trigrams(a), trigrams(b));
}

export interface TextScores {
  vocabulary: number;
  phrasing: number;
  headline: number;
  content: number;
}

/** Weights: vocabulary 0.45, phrasing 0.35, headline 0.2 (see docs/decisions/0002-similarity-blend.md). */
export function textSimilarity(a: { visibleText: string; headline: string }, b: { visibleText: string; headline: string }): TextScores {
  const ta = words(a.visibleText);
  const tb = words(b.visibleText);
  const vocabulary = cosine(termVector(ta), termVector(tb));
  const phrasing = dice(shingles(ta, 3), shingles(tb, 3));
  const headline = headlineSimilarity(a.headline, b.headline);
  const content = 0.45 * vocabulary + 0.35 * phrasing + 0.2 * headline;
  return { vocabulary, phrasing, headline, content };
}
