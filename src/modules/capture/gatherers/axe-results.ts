// axe-core's results, made small enough to store: one entry per failed rule with its element count,
// WCAG level and criteria from the rule's tags, and a few example elements (HTML trimmed, selector).
// Pure: the page script runs it on axe's raw results inside the page, tests run it on plain objects.

import type { AccessibilityAudit, AuditRule } from "../model";

/** The part of axe-core's result objects read here (axe.d.ts: AxeResults, Result, NodeResult). */
export interface AxeNodeLike {
  html: string;
  target: unknown[];
  any?: { id: string; data?: unknown }[];
}
export interface AxeRuleLike {
  id: string;
  impact?: string | null;
  tags: string[];
  help: string;
  helpUrl: string;
  nodes: AxeNodeLike[];
}
export interface AxeResultsLike {
  violations: AxeRuleLike[];
  incomplete: AxeRuleLike[];
}

/**
 * axe's best practices that stand for what the capture checked by hand before axe (headings,
 * landmarks, alt text, labels): the rest of them (tabindex, skip links, table captions…) are not
 * audited.
 */
export const BEST_PRACTICES = [
  "page-has-heading-one",
  "heading-order",
  "empty-heading",
  "landmark-one-main",
  "region",
  "landmark-unique",
  "landmark-no-duplicate-main",
  "landmark-no-duplicate-banner",
  "landmark-no-duplicate-contentinfo",
  "landmark-main-is-top-level",
  "landmark-banner-is-top-level",
  "landmark-contentinfo-is-top-level",
  "image-redundant-alt",
  "label-title-only",
] as const;

/**
 * What the capture asks axe for: WCAG 2.0–2.2 A and AA and the best practices above, in the top
 * document only (frames are not measured; waiting on them costs a minute each). Only violations
 * and what axe could not decide come back with their elements.
 */
export const AXE_RUN_OPTIONS = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
  rules: {
    ...Object.fromEntries(BEST_PRACTICES.map((id) => [id, { enabled: true }])),
    // Says "frames were not tested": true of every page here, and no fault of it.
    "frame-tested": { enabled: false },
  },
  resultTypes: ["violations", "incomplete"],
  iframes: false,
  // The page has settled: a media element that has not loaded its metadata by now gets 2 s, not axe's 10.
  preload: { assets: ["media"], timeout: 2000 },
  // The page script matches contrast results to its own text runs through the elements.
  elementRef: true,
  selectors: true,
  ancestry: false,
  xpath: false,
  performanceTimer: false,
} as const;

const EXAMPLES = 3;
const HTML_MAX = 160;
const SELECTOR_MAX = 160;
const IMPACTS = ["critical", "serious", "moderate", "minor"] as const;
type Impact = (typeof IMPACTS)[number];

/** "wcag2aa", "wcag21a"… name a level (and a WCAG version); "wcag111", "wcag1410" a success criterion. */
export function wcagOf(tags: string[]): Pick<AuditRule, "level" | "criteria" | "wcag"> {
  let level: AuditRule["level"] = "best-practice";
  let version: string | null = null;
  const rank = { "best-practice": 0, A: 1, AA: 2, AAA: 3 } as const;
  const criteria: string[] = [];
  for (const tag of tags) {
    const lv = /^wcag(2|2\d)(a{1,3})$/.exec(tag);
    if (lv) {
      const found = lv[2]!.toUpperCase() as "A" | "AA" | "AAA";
      // A rule tagged for A in 2.0 and for AA elsewhere fails at A: the lowest level is the one that binds.
      if (level === "best-practice" || rank[found] < rank[level]) level = found;
      const v = lv[1] === "2" ? "2.0" : `2.${lv[1]![1]}`;
      if (!version || v < version) version = v;
      continue;
    }
    const sc = /^wcag(\d)(\d)(\d{1,2})$/.exec(tag);
    if (sc) criteria.push(`${sc[1]}.${sc[2]}.${sc[3]}`);
  }
  return { level, criteria, wcag: level === "best-practice" ? null : version };
}

export const trimHtml = (html: string, max = HTML_MAX): string => {
  const flat = html.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/** axe's target: a selector per frame or shadow root on the way; joined, the way DevTools writes a path into them. */
export function selectorOf(target: unknown[]): string {
  const parts = target.map((t) => (Array.isArray(t) ? t.join(" >>> ") : typeof t === "string" ? t : JSON.stringify(t)));
  return trimHtml(parts.join(" >>> "), SELECTOR_MAX);
}

/** The colours axe measured for a color-contrast failure (its check's data), when it has them. */
function contrastOf(node: AxeNodeLike): AuditRule["examples"][number]["contrast"] {
  for (const check of node.any ?? []) {
    const d = check.data as { fgColor?: unknown; bgColor?: unknown; contrastRatio?: unknown; expectedContrastRatio?: unknown } | undefined;
    if (!d || typeof d.fgColor !== "string" || typeof d.bgColor !== "string" || typeof d.contrastRatio !== "number") continue;
    const required = Number.parseFloat(String(d.expectedContrastRatio ?? ""));
    return {
      fg: d.fgColor,
      bg: d.bgColor,
      ratio: Math.round(d.contrastRatio * 100) / 100,
      required: Number.isFinite(required) ? required : 4.5,
    };
  }
  return undefined;
}

const impactOf = (v: unknown): Impact | null => (IMPACTS.includes(v as Impact) ? (v as Impact) : null);

export function summariseRule(rule: AxeRuleLike): AuditRule {
  return {
    id: rule.id,
    impact: impactOf(rule.impact),
    ...wcagOf(rule.tags),
    help: rule.help,
    helpUrl: rule.helpUrl,
    count: rule.nodes.length,
    examples: rule.nodes.slice(0, EXAMPLES).map((n) => {
      const contrast = rule.id === "color-contrast" ? contrastOf(n) : undefined;
      return { html: trimHtml(n.html), selector: selectorOf(n.target), ...(contrast ? { contrast } : {}) };
    }),
  };
}

const IMPACT_ORDER: Record<string, number> = { critical: 0, serious: 1, moderate: 2, minor: 3 };
const LEVEL_ORDER: Record<AuditRule["level"], number> = { A: 0, AA: 1, AAA: 2, "best-practice": 3 };

/** The stored audit: failed rules most severe first (impact, then WCAG level, then more elements). */
export function summariseAxe(results: AxeResultsLike, ms: number, version: string): AccessibilityAudit {
  const violations = results.violations
    .filter((r) => r.nodes.length > 0)
    .map(summariseRule)
    .sort(
      (a, b) =>
        (IMPACT_ORDER[a.impact ?? ""] ?? 4) - (IMPACT_ORDER[b.impact ?? ""] ?? 4) ||
        LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
        b.count - a.count ||
        a.id.localeCompare(b.id),
    );
  const incomplete = results.incomplete.filter((r) => r.nodes.length > 0).map((r) => ({ id: r.id, count: r.nodes.length }));
  return { engine: `axe-core ${version}`, ms: Math.round(ms), violations, incomplete };
}

/** The axe rules behind the counts budgets and older findings read. */
export const IMAGE_ALT_RULES = ["image-alt"];
export const LABEL_RULES = ["label", "select-name"];

/** Elements failing any of `rules`. */
export const failing = (audit: AccessibilityAudit, rules: string[]): number =>
  audit.violations.filter((r) => rules.includes(r.id)).reduce((n, r) => n + r.count, 0);
