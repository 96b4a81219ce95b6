// Accessibility: one finding per axe-core rule the page fails (decision 0015), named by the axe rule
// id, with how many elements fail it, the WCAG level and criteria it tests, one example element and
// its selector. Contrast axe could not decide (text over images) is the painted-contrast method's,
// reported by the design rules' low-contrast finding; the two never name the same element. A page
// is audited once, on its desktop capture, and the evidence says so.

import { contrastFix, contrastRatio } from "#server/lib/image/color";
import { VIEWPORTS, type AuditRule, type Finding } from "#server/modules/capture/model";
import { quote, ratio } from "../format";
import type { Draft, Rule, RuleSnapshot } from "./types";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** axe's impact, one step lower for its best practices: WCAG failures come first. */
function severityOf(rule: AuditRule): Finding["severity"] {
  const base = rule.impact === "critical" || rule.impact === "serious" ? 2 : rule.impact === "minor" ? 0 : 1;
  const step = rule.level === "best-practice" ? base - 1 : base;
  return step >= 2 ? "high" : step === 1 ? "medium" : "low";
}

/** "AA (1.4.3, WCAG 2.0)", "Best practice (not a WCAG requirement)". */
export function levelText(rule: AuditRule): string {
  if (rule.level === "best-practice") return "Best practice (not a WCAG requirement)";
  const detail = [rule.criteria.join(", "), rule.wcag ? `WCAG ${rule.wcag}` : ""].filter(Boolean).join(", ");
  return detail ? `${rule.level} (${detail})` : rule.level;
}

interface Wording {
  title: (label: string, n: number) => string;
  fix: (page: RuleSnapshot, rule: AuditRule) => string;
}

const WORDING: Record<string, Wording> = {
  "image-alt": {
    title: (l, n) => `${l} has ${plural(n, "image")} without alt text`,
    fix: () =>
      'Give every meaningful image an alt text that says what it shows; mark purely decorative ones with alt="" so screen readers skip them.',
  },
  label: {
    title: (l, n) => `${l} has ${plural(n, "form field")} without a label`,
    fix: () =>
      "Give each field a visible <label for=…> (or an aria-label when the design has no room for one), so screen readers announce what to type.",
  },
  "select-name": {
    title: (l, n) => `${l} has ${plural(n, "select menu")} without a label`,
    fix: () => "Give each select menu a <label for=…> naming what it chooses.",
  },
  "color-contrast": {
    title: (l, n) => `${plural(n, "text element")} on ${l} fall${n === 1 ? "s" : ""} below WCAG AA contrast`,
    fix: (_p, rule) => {
      const c = rule.examples[0]?.contrast;
      const to = c ? contrastFix(c.fg, c.bg, c.required + 0.1) : null;
      if (c && to) {
        const reached = ratio(contrastRatio(to.fg, to.bg));
        const change =
          to.fg !== c.fg.toLowerCase() ? `use ${to.fg} instead of ${c.fg} on ${c.bg}` : `change its background from ${c.bg} to ${to.bg}`;
        return `For the example, ${change} (${reached}, same hue); check the other elements the same way.`;
      }
      return "Darken the text (or lighten its background) until it reaches 4.5:1, or 3:1 for large text.";
    },
  },
  "link-name": {
    title: (l, n) => `${l} has ${plural(n, "link")} with no text a screen reader can announce`,
    fix: () => "Give icon-only links an aria-label (or visually hidden text) that says where they go.",
  },
  "button-name": {
    title: (l, n) => `${l} has ${plural(n, "button")} with no accessible name`,
    fix: () => "Give icon-only buttons an aria-label (or visually hidden text) that says what they do.",
  },
  "page-has-heading-one": {
    title: (l) => `${l} has no h1 heading`,
    fix: (page) => {
      const first = page.extraction.elements.headings[0];
      return first
        ? `Mark the main headline up as <h1> (currently ${quote(first.text, 40)} is an h${first.level}) so search engines and screen readers know what the page is about.`
        : "Add one <h1> stating what the page offers; screen-reader users navigate by headings and search engines weigh it.";
    },
  },
};

const { width, height } = VIEWPORTS.desktop;
const AUDITED_AT = `Once per page, at desktop width (${width} × ${height}); what only the phone layout shows (a menu button, say) is not audited`;

function draftFor(page: RuleSnapshot, rule: AuditRule, engine: string): Draft {
  const wording = WORDING[rule.id];
  const example = rule.examples[0];
  const evidence: Record<string, string> = {
    "axe-core rule": `${rule.id} (${engine})`,
    "WCAG level": levelText(rule),
    [`${page.label} elements failing`]:
      rule.id === "image-alt" && page.extraction.elements.images >= rule.count
        ? `${rule.count} of ${page.extraction.elements.images} images`
        : String(rule.count),
  };
  if (rule.impact) evidence.Impact = rule.impact;
  evidence.Audited = AUDITED_AT;
  if (example) {
    evidence["Example element"] = example.html;
    evidence["Example selector"] = example.selector;
    if (example.contrast)
      evidence["Example colours"] =
        `${example.contrast.fg} on ${example.contrast.bg}, ${ratio(example.contrast.ratio)} (needs ${ratio(example.contrast.required)})`;
  }
  return {
    rule: rule.id,
    group: rule.id === "color-contrast" ? "design" : "ux",
    severity: severityOf(rule),
    title: wording
      ? wording.title(page.label, rule.count)
      : `${rule.help.replace(/\.$/, "")} — ${plural(rule.count, "element")} on ${page.label} fail${rule.count === 1 ? "s" : ""}`,
    evidence,
    fix: wording ? wording.fix(page, rule) : `${rule.help.replace(/\.$/, "")}: see ${rule.helpUrl} for how to fix it.`,
  };
}

const axeAudit: Rule = {
  id: "accessibility",
  scope: "page",
  run({ page }) {
    const audit = page.extraction.accessibility.audit;
    if (!audit) return null;
    if (audit.error)
      return {
        rule: "accessibility-not-audited",
        group: "ux",
        severity: "low",
        title: `${page.label}'s accessibility could not be audited`,
        evidence: { Audit: audit.error },
        fix: "Run the comparison again; a page that keeps its main thread busy for long (endless scripts, a huge DOM) can outlast the audit.",
      };
    return audit.violations.map((rule) => draftFor(page, rule, audit.engine));
  },
};

export const accessibilityRules: Rule[] = [axeAudit];
