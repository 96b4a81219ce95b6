// The words: readability against competitors, headline length, meta description.

import { quote } from "../format";
import { words } from "../text";
import { median, type Rule } from "./types";

const READABILITY_GAP = 15;
/** Flesch 60+ is "plain English"; below that a gap to competitors is worth fixing. */
const PLAIN_ENGLISH = 60;

const readability: Rule = {
  id: "readability",
  scope: "page",
  run({ page, others }) {
    const mine = page.extraction.copy.readability;
    if (page.extraction.copy.wordCount < 50 || mine >= PLAIN_ENGLISH) return null;
    const rivals = others.filter((o) => o.extraction.copy.wordCount >= 50);
    const easiest = rivals.reduce<(typeof rivals)[number] | null>(
      (b, o) => (!b || o.extraction.copy.readability > b.extraction.copy.readability ? o : b),
      null,
    );
    const absolute = mine < 30;
    if (!absolute && (!easiest || easiest.extraction.copy.readability - mine < READABILITY_GAP)) return null;
    const evidence: Record<string, string> = { [`${page.label} reading ease (Flesch)`]: mine.toFixed(0) };
    for (const o of rivals) evidence[`${o.label} reading ease (Flesch)`] = o.extraction.copy.readability.toFixed(0);
    return {
      group: "copy",
      severity: mine < 30 ? "high" : "medium",
      title:
        easiest && easiest.extraction.copy.readability - mine >= READABILITY_GAP
          ? `${page.label}'s copy is much harder to read than ${easiest.label}'s`
          : `${page.label}'s copy is hard to read`,
      evidence,
      fix: `Cut sentences to under 20 words, swap jargon for everyday words and lead each paragraph with the benefit; aim for a Flesch score of ${PLAIN_ENGLISH}+${easiest ? ` (${easiest.label} reaches ${easiest.extraction.copy.readability.toFixed(0)})` : ""}.`,
    };
  },
};

const MAX_HEADLINE_WORDS = 12;

const headlineLength: Rule = {
  id: "headline-length",
  scope: "page",
  run({ page, others }) {
    const headline = page.extraction.copy.headline.trim();
    const count = words(headline).length;
    const typical = median(others.map((o) => words(o.extraction.copy.headline).length).filter((n) => n > 0));
    const evidence: Record<string, string> = { [`${page.label} headline`]: headline ? `${quote(headline)} (${count} words)` : "none" };
    for (const o of others) {
      const h = o.extraction.copy.headline.trim();
      if (h) evidence[`${o.label} headline`] = `${quote(h)} (${words(h).length} words)`;
    }
    if (count === 0) {
      return {
        group: "copy",
        severity: "high",
        title: `${page.label} has no headline on ${page.viewport}`,
        evidence,
        fix: "Open with a headline of 4–10 words that says what you offer and for whom; it is the one line every visitor reads.",
      };
    }
    if (count > MAX_HEADLINE_WORDS && (typical === null || count >= typical * 1.5)) {
      return {
        group: "copy",
        severity: count > MAX_HEADLINE_WORDS * 1.5 ? "medium" : "low",
        title: `${page.label}'s headline runs ${count} words${typical !== null ? ` against ${typical.toFixed(0)} for competitors` : ""}`,
        evidence,
        fix: "Cut the headline to the promise (under 10 words) and move the detail into the sub-headline below it.",
      };
    }
    if (count < 3 && typical !== null && typical >= 4) {
      return {
        group: "copy",
        severity: "low",
        title: `${page.label}'s headline is only ${count} word${count === 1 ? "" : "s"}`,
        evidence,
        fix: `Say what the product does and for whom in the headline — competitors use about ${typical.toFixed(0)} words; a brand name alone leaves visitors guessing.`,
      };
    }
    return null;
  },
};

const metaDescription: Rule = {
  id: "meta-description",
  scope: "page",
  run({ page }) {
    const meta = page.extraction.metaDescription.trim();
    if (meta.length === 0) {
      return {
        group: "copy",
        severity: "medium",
        title: `${page.label} has no meta description`,
        evidence: {
          [`${page.label} meta description`]: "missing",
          [`${page.label} title`]: page.extraction.title ? quote(page.extraction.title) : "missing",
        },
        fix: "Write a 120–155 character meta description that states the offer and ends with the call to action; search engines otherwise show a random page snippet.",
      };
    }
    if (meta.length > 160) {
      return {
        group: "copy",
        severity: "low",
        title: `${page.label}'s meta description is ${meta.length} characters and will be cut off`,
        evidence: { [`${page.label} meta description`]: `${quote(meta, 80)} (${meta.length} characters)` },
        fix: "Trim the meta description to at most 155 characters with the key promise first.",
      };
    }
    return null;
  },
};

export const copyRules: Rule[] = [readability, headlineLength, metaDescription];
