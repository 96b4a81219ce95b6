// Can a visitor act: calls to action, mobile scrolling and reading size. Whether everyone can use
// the page (alt text, labels, headings, landmarks) is axe-core's audit, in ./accessibility.ts.

import { VIEWPORTS } from "#server/modules/capture/model";
import { px, quote } from "../format";
import { median, type Rule } from "./types";

const ctaAboveFold: Rule = {
  id: "cta-above-fold",
  run({ page, others }) {
    const mine = page.extraction.elements.ctas.filter((c) => c.aboveFold);
    if (mine.length > 0) return null;
    const rival = others.find((o) => o.extraction.elements.ctas.some((c) => c.aboveFold));
    const evidence: Record<string, string> = { [`${page.label} calls to action above the fold`]: "0" };
    if (rival) {
      const theirs = rival.extraction.elements.ctas.filter((c) => c.aboveFold);
      evidence[`${rival.label} calls to action above the fold`] = `${theirs.length} (${quote(theirs[0]!.text, 40)})`;
      return {
        group: "ux",
        severity: "high",
        title: `${rival.label} shows a call to action above the fold on ${page.viewport}; ${page.label} shows none`,
        evidence,
        fix: `Put the primary button in the hero so it is visible without scrolling on ${page.viewport} — ${rival.label} leads with ${quote(theirs[0]!.text, 40)}.`,
      };
    }
    const below = page.extraction.elements.ctas[0];
    if (below) evidence[`${page.label} first call to action`] = `${quote(below.text, 40)} at ${px(below.box.y)}`;
    return {
      group: "ux",
      severity: "medium",
      title: `${page.label} has no call to action above the fold on ${page.viewport}`,
      evidence,
      fix: below
        ? `Move ${quote(below.text, 40)} (now ${px(below.box.y)} down the page) into the hero so the first screen tells visitors what to do.`
        : "Add a primary button to the hero so the first screen tells visitors what to do next.",
    };
  },
};

/** Beyond ~12 screens few mobile visitors reach the end; flag it when competitors are shorter. */
const MOBILE_SCREENS_LIMIT = 12;

const mobilePageHeight: Rule = {
  id: "mobile-page-height",
  run({ page, others }) {
    if (page.viewport !== "mobile") return null;
    const screen = VIEWPORTS.mobile.height;
    const height = page.extraction.pageHeight;
    const screens = height / screen;
    if (screens <= MOBILE_SCREENS_LIMIT) return null;
    const typical = median(others.map((o) => o.extraction.pageHeight));
    if (typical !== null && height < typical * 1.5) return null;
    const evidence: Record<string, string> = { [`${page.label} mobile page height`]: `${px(height)} (${screens.toFixed(1)} screens)` };
    for (const o of others)
      evidence[`${o.label} mobile page height`] =
        `${px(o.extraction.pageHeight)} (${(o.extraction.pageHeight / screen).toFixed(1)} screens)`;
    return {
      group: "ux",
      severity: screens > MOBILE_SCREENS_LIMIT * 2 ? "high" : "medium",
      title: `${page.label} is ${screens.toFixed(0)} screens long on mobile`,
      evidence,
      fix: "Shorten the mobile page: collapse secondary sections into accordions or tabs, stack fewer cards, and repeat the call to action so nobody has to scroll back up.",
    };
  },
};

const mobileBodyFont: Rule = {
  id: "mobile-body-font",
  run({ page, others }) {
    if (page.viewport !== "mobile") return null;
    const body = page.extraction.typography.body;
    if (!body || body.sizePx >= 16) return null;
    const evidence: Record<string, string> = { [`${page.label} mobile body text`]: px(body.sizePx) };
    for (const o of others)
      if (o.extraction.typography.body) evidence[`${o.label} mobile body text`] = px(o.extraction.typography.body.sizePx);
    return {
      group: "ux",
      severity: body.sizePx < 14 ? "high" : "medium",
      title: `${page.label}'s body text is ${px(body.sizePx)} on mobile`,
      evidence,
      fix: `Set the body font size to at least 16 px on small screens (line height about ${px(16 * 1.5)}); below that people pinch-zoom and iOS zooms form fields.`,
    };
  },
};

export const uxRules: Rule[] = [ctaAboveFold, mobilePageHeight, mobileBodyFont];
