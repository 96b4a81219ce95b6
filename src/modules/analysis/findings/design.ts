// Visual design: contrast against WCAG AA, type families, and colour discipline.

import { contrastFix, contrastRatio, deltaE2000, hexToLab, hexToRgb } from "#server/lib/image/color";
import { list, quote, ratio } from "../format";
import { normaliseFamily } from "../typography";
import type { Extraction } from "#server/modules/capture/model";
import type { Rule } from "./types";

const AA_BODY = 4.5;

/** The text/background pair behind the measured body contrast, when the extraction lets us tell. */
function bodyPair(e: Extraction): { fg: string; bg: string } | null {
  const body = e.accessibility.bodyContrast;
  if (body === null) return null;
  const run = e.accessibility.lowContrast.find((r) => Math.abs(r.ratio - body) < 0.05 && hexToRgb(r.fg) && hexToRgb(r.bg));
  if (run) return { fg: run.fg, bg: run.bg };
  const fg = e.palette.text[0]?.hex;
  const bg = e.palette.background[0]?.hex;
  if (fg && bg && Math.abs(contrastRatio(fg, bg) - body) < 0.15) return { fg, bg };
  return null;
}

const bodyContrast: Rule = {
  id: "body-contrast",
  scope: "page",
  run({ page, others }) {
    const value = page.extraction.accessibility.bodyContrast;
    if (value === null || value >= AA_BODY) return null;
    const evidence: Record<string, string> = {
      [`${page.label} body text contrast`]: ratio(value),
      "WCAG AA minimum": ratio(AA_BODY),
    };
    for (const o of others) {
      const theirs = o.extraction.accessibility.bodyContrast;
      if (theirs !== null) evidence[`${o.label} body text contrast`] = ratio(theirs);
    }
    const pair = bodyPair(page.extraction);
    const fix = pair ? contrastFix(pair.fg, pair.bg, AA_BODY + 0.1) : null;
    if (pair) evidence[`${page.label} body colours`] = `${pair.fg} on ${pair.bg}`;
    return {
      group: "design",
      // Just under 4.5 is a nudge; well under it makes every paragraph hard to read.
      severity: value < 4 ? "high" : "medium",
      title: `Body text contrast ${ratio(value)} fails WCAG AA on ${page.label} (${page.viewport})`,
      evidence,
      fix:
        pair && fix
          ? `${describeFix(pair, fix, "body text")}, which passes AA.`
          : "Darken the body text (or lighten its background) until it reaches at least 4.5:1.",
    };
  },
};

/** "Use #7a7d88 instead of #5c5f6a for body text on #0b0f19 (4.6:1)" — or the background change. */
function describeFix(from: { fg: string; bg: string }, to: { fg: string; bg: string }, what: string): string {
  const reached = ratio(contrastRatio(to.fg, to.bg));
  if (to.fg !== from.fg.toLowerCase())
    return `Use ${to.fg} instead of ${from.fg} for ${what} on ${from.bg} (${reached}; same hue, only ${contrastRatio(to.fg, "#000000") > contrastRatio(from.fg, "#000000") ? "lighter" : "darker"})`;
  return `Keep the ${what} ${from.fg} but change its background from ${from.bg} to ${to.bg} (${reached}; same hue)`;
}

const lowContrastRuns: Rule = {
  id: "low-contrast-text",
  scope: "page",
  run({ page }) {
    const e = page.extraction;
    const body = bodyContrast.run({ page, others: [] }) ? bodyPair(e) : null;
    // Runs in the body colours are already covered by the body-contrast finding.
    const runs = e.accessibility.lowContrast.filter((r) => !body || r.fg !== body.fg || r.bg !== body.bg);
    if (runs.length === 0) return null;
    const worst = [...runs].sort((a, b) => a.ratio - b.ratio)[0]!;
    const fix = contrastFix(worst.fg, worst.bg, worst.required + 0.1);
    const rest = runs.length - 1;
    return {
      group: "design",
      severity: worst.ratio < 3 || runs.length >= 5 ? "high" : "medium",
      title: `${runs.length} text run${runs.length === 1 ? "" : "s"} on ${page.label} fall${runs.length === 1 ? "s" : ""} below WCAG AA contrast (${page.viewport})`,
      evidence: {
        [`${page.label} low-contrast runs`]: String(runs.length),
        "Worst run": `${quote(worst.text, 40)} ${ratio(worst.ratio)} (needs ${ratio(worst.required)})`,
        "Worst run colours": `${worst.fg} on ${worst.bg}`,
        ...(worst.method === "pixels"
          ? {
              "Worst run measured":
                "against the pixels painted behind the text (an image, gradient or overlay), worst tenth; both colours as a colour picker finds them on the screenshot (translucent text blended over that background)",
            }
          : {}),
      },
      fix:
        (worst.method === "pixels"
          ? `Give ${quote(worst.text, 40)} a backing it can rely on: a darker overlay on the image behind it, a solid or translucent panel, or a text colour that reaches ${ratio(worst.required)} against the lightest part of the image (measured ${worst.bg}).`
          : fix
            ? `${describeFix(worst, fix, quote(worst.text, 40))}.`
            : `Raise the contrast of ${quote(worst.text, 40)} to at least ${ratio(worst.required)}.`) +
        (rest > 0 ? ` Then check the other ${rest} run${rest === 1 ? "" : "s"} the same way.` : ""),
    };
  },
};

const ICON_FONT = /icon|awesome|symbols|glyph|emoji/i;
const MAX_FAMILIES = 3;

function families(e: Extraction): string[] {
  const seen = new Map<string, number>();
  for (const f of e.typography.families) {
    const name = normaliseFamily(f.family);
    if (!name || ICON_FONT.test(name)) continue;
    seen.set(name, (seen.get(name) ?? 0) + f.share);
  }
  return [...seen]
    .filter(([, share]) => share >= 0.02)
    .sort((a, b) => b[1] - a[1])
    .map(([name]) => name);
}

const tooManyFonts: Rule = {
  id: "too-many-font-families",
  scope: "page",
  run({ page, others }) {
    const mine = families(page.extraction);
    if (mine.length <= MAX_FAMILIES) return null;
    const evidence: Record<string, string> = { [`${page.label} font families`]: `${mine.length} (${list(mine)})` };
    for (const o of others) evidence[`${o.label} font families`] = String(families(o.extraction).length);
    return {
      group: "design",
      severity: mine.length > MAX_FAMILIES + 2 ? "medium" : "low",
      title: `${page.label} uses ${mine.length} font families`,
      evidence,
      fix: `Settle on two families — ${mine[0]} for text and one display face for headings — and express hierarchy with size and weight instead.`,
    };
  },
};

const CHROMATIC = 15;
const SAME_COLOUR = 10;
const MAX_ACCENTS = 4;

/** Distinct saturated colours used for buttons and text: the brand's accent vocabulary. */
function accents(e: Extraction): string[] {
  const candidates = [
    ...e.elements.ctas.map((c) => c.bg),
    ...e.palette.buttons.filter((c) => c.share >= 0.01).map((c) => c.hex),
    ...e.palette.text.filter((c) => c.share >= 0.01).map((c) => c.hex),
  ];
  const kept: { hex: string; lab: readonly [number, number, number] }[] = [];
  for (const hex of candidates) {
    const lab = hexToLab(hex);
    if (!lab || Math.hypot(lab[1], lab[2]) < CHROMATIC) continue;
    if (kept.some((k) => deltaE2000(k.lab, lab) < SAME_COLOUR)) continue;
    kept.push({ hex: hex.toLowerCase(), lab });
  }
  return kept.map((k) => k.hex);
}

const brandConsistency: Rule = {
  id: "accent-colours",
  scope: "page",
  run({ page, others }) {
    const mine = accents(page.extraction);
    if (mine.length <= MAX_ACCENTS) return null;
    const evidence: Record<string, string> = { [`${page.label} accent colours`]: `${mine.length} (${mine.join(", ")})` };
    for (const o of others) evidence[`${o.label} accent colours`] = String(accents(o.extraction).length);
    const ctaColours = new Set(page.extraction.elements.ctas.map((c) => c.bg.toLowerCase()).filter((c) => hexToRgb(c)));
    return {
      group: "design",
      severity: ctaColours.size > 2 ? "medium" : "low",
      title: `${page.label} spreads its brand over ${mine.length} accent colours`,
      evidence: ctaColours.size > 1 ? { ...evidence, [`${page.label} button colours`]: [...ctaColours].join(", ") } : evidence,
      fix: `Pick one primary accent (${mine[0]}) for every main button and link, one secondary for highlights, and keep the rest neutral so the call to action stands out.`,
    };
  },
};

export const designRules: Rule[] = [bodyContrast, lowContrastRuns, tooManyFonts, brandConsistency];
