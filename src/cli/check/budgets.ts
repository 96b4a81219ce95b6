// One verdict per budget and viewport, from the comparison's report: absolute budgets on the
// site's own capture, ranks and ratios against the competitors, similarity to each competitor.
import type { Extraction, Viewport } from "#server/modules/capture/model";
import type { ComparisonReport } from "#server/modules/comparisons/model";
import { ABSOLUTE_BUDGETS, type AbsoluteBudget, type CheckConfig } from "./config";

export interface BudgetResult {
  /** e.g. "lcpMs.max", "rank.bodyContrast.max", "similarity.Beta.min" */
  budget: string;
  viewport: Viewport;
  /** null: not measured, which fails the budget rather than passing it unseen. */
  value: number | null;
  limit: number;
  /** Whether the value must stay at or under the limit (max) or at or over it (min). */
  bound: "max" | "min";
  pass: boolean;
}

/** A page's captures by viewport. */
type PageCaptures = Map<Viewport, Extraction>;

const MEASURE: Record<AbsoluteBudget, (e: Extraction, page: PageCaptures) => number | null> = {
  lcpMs: (e) => e.timing.lcpMs,
  fcpMs: (e) => e.timing.fcpMs,
  cls: (e) => e.timing.cls,
  // This capture's own text: axe's contrast failures and the painted method's (text over images)
  // never name the same element. A capture axe did not audit counts what CSS and the pixels found.
  lowContrast: (e) => {
    const { audit, lowContrast } = e.accessibility;
    if (!audit) return lowContrast.length;
    return audit.error ? null : lowContrast.length + failing(audit, ["color-contrast"]);
  },
  imagesWithoutAlt: (e, page) => pageCount(e, page, (a) => a.imagesWithoutAlt),
  inputsWithoutLabel: (e, page) => pageCount(e, page, (a) => a.inputsWithoutLabel),
  accessibilityViolations: (e, page) => pageCount(e, page, (a) => a.audit && a.audit.violations.reduce((n, r) => n + r.count, 0)),
  // A capture without `network` did not measure failures: not measured, so the budget fails.
  failedRequests: (e) => e.network?.failedCount ?? null,
  // Captures made before Speed Index and TBT were measured have neither: not measured, so the budget fails.
  speedIndex: (e) => e.timing.speedIndexMs ?? null,
  tbt: (e) => e.timing.tbtMs ?? null,
};

type Accessibility = Extraction["accessibility"];
type Audit = NonNullable<Accessibility["audit"]>;
const failing = (a: Audit, rules: string[]) => a.violations.filter((r) => rules.includes(r.id)).reduce((n, r) => n + r.count, 0);

/**
 * A count of the page's accessibility audit. A page is audited once, on its desktop capture, so a
 * capture that was not audited (counts null, no audit) reads its desktop capture's. Null (not
 * measured, so the budget fails) when axe could not audit the page or there is no audited capture.
 * Captures stored before the audit have their hand counts, and nothing for what only axe measures.
 */
function pageCount(e: Extraction, page: PageCaptures, count: (a: Accessibility) => number | null | undefined): number | null {
  const own = e.accessibility;
  const audited = own.audit || own.imagesWithoutAlt !== null ? own : page.get("desktop")?.accessibility;
  if (!audited || audited.audit?.error) return null;
  return count(audited) ?? null;
}

/** Which way is better for each ranked measure. */
const RANKED = {
  lcpMs: { of: (e: Extraction) => e.timing.lcpMs, better: (a: number, b: number) => a < b },
  bodyContrast: { of: (e: Extraction) => e.accessibility.bodyContrast, better: (a: number, b: number) => a > b },
} as const;

export function verdict(budget: string, viewport: Viewport, value: number | null, limit: number, bound: "max" | "min"): BudgetResult {
  const pass = value !== null && (bound === "max" ? value <= limit : value >= limit);
  return { budget, viewport, value, limit, bound, pass };
}

/** Captures by target label and viewport, and the site's label. */
function capturesOf(report: ComparisonReport) {
  const labelOf = new Map(report.targets.map((t) => [t.id, t.label]));
  const byLabel = new Map<string, Map<Viewport, Extraction>>();
  for (const s of report.snapshots) {
    const label = labelOf.get(s.targetId);
    // Budgets are about each site's home page as a first-time visitor sees it, in light.
    if (!label || !s.extraction || (s.role ?? "home") !== "home" || (s.colorScheme ?? "light") !== "light") continue;
    if (!byLabel.has(label)) byLabel.set(label, new Map());
    byLabel.get(label)!.set(s.viewport, s.extraction);
  }
  return byLabel;
}

export function evaluateBudgets(config: CheckConfig, report: ComparisonReport): BudgetResult[] {
  const captures = capturesOf(report);
  const site = captures.get(config.site.label) ?? new Map<Viewport, Extraction>();
  const competitors = config.competitors.map((c) => captures.get(c.label) ?? new Map<Viewport, Extraction>());
  const b = config.budgets;
  const out: BudgetResult[] = [];

  for (const name of ABSOLUTE_BUDGETS) {
    const limit = b[name]?.max;
    if (limit === undefined) continue;
    for (const vp of config.viewports) {
      const capture = site.get(vp);
      out.push(verdict(`${name}.max`, vp, capture ? MEASURE[name](capture, site) : null, limit, "max"));
    }
  }

  for (const [name, rule] of Object.entries(RANKED) as [keyof typeof RANKED, (typeof RANKED)[keyof typeof RANKED]][]) {
    const limit = b.rank?.[name]?.max;
    if (limit === undefined) continue;
    for (const vp of config.viewports) {
      const mine = site.get(vp);
      const own = mine ? rule.of(mine) : null;
      const others = competitors
        .map((c) => c.get(vp))
        .map((e) => (e ? rule.of(e) : null))
        .filter((v): v is number => v !== null);
      const place = own === null ? null : 1 + others.filter((v) => rule.better(v, own)).length;
      out.push(verdict(`rank.${name}.max`, vp, place, limit, "max"));
    }
  }

  const ratio = b.lcpMs?.maxVsBestCompetitor;
  if (ratio !== undefined) {
    for (const vp of config.viewports) {
      const own = site.get(vp)?.timing.lcpMs ?? null;
      const best = Math.min(...competitors.map((c) => c.get(vp)?.timing.lcpMs).filter((v): v is number => typeof v === "number" && v > 0));
      const value = own === null || !Number.isFinite(best) ? null : Math.round((own / best) * 100) / 100;
      out.push(verdict("lcpMs.maxVsBestCompetitor", vp, value, ratio, "max"));
    }
  }

  const siteTarget = report.targets.find((t) => t.label === config.site.label);
  for (const [label, bounds] of Object.entries(b.similarity ?? {})) {
    const other = report.targets.find((t) => t.label === label);
    for (const vp of config.viewports) {
      const diff = report.diffs.find(
        (d) =>
          d.viewport === vp &&
          ((d.targetAId === siteTarget?.id && d.targetBId === other?.id) || (d.targetBId === siteTarget?.id && d.targetAId === other?.id)),
      );
      const value = diff ? Math.round(diff.overallSimilarity * 1000) / 1000 : null;
      if (bounds.max !== undefined) out.push(verdict(`similarity.${label}.max`, vp, value, bounds.max, "max"));
      if (bounds.min !== undefined) out.push(verdict(`similarity.${label}.min`, vp, value, bounds.min, "min"));
    }
  }
  return out;
}
