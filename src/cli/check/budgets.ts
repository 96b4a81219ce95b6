// Absolute budgets: one verdict per budget and viewport, from the site's own capture.
import type { Extraction, Viewport } from "../../modules/capture/model";
import { ABSOLUTE_BUDGETS, type AbsoluteBudget, type CheckConfig } from "./config";

export interface BudgetResult {
  /** e.g. "lcpMs.max" */
  budget: string;
  viewport: Viewport;
  /** null: the page did not report this measure, which fails the budget rather than passing it unseen. */
  value: number | null;
  limit: number;
  pass: boolean;
}

const MEASURE: Record<AbsoluteBudget, (e: Extraction) => number | null> = {
  lcpMs: (e) => e.timing.lcpMs,
  fcpMs: (e) => e.timing.fcpMs,
  cls: (e) => e.timing.cls,
  lowContrast: (e) => e.accessibility.lowContrast.length,
  imagesWithoutAlt: (e) => e.accessibility.imagesWithoutAlt,
  inputsWithoutLabel: (e) => e.accessibility.inputsWithoutLabel,
};

export function evaluateBudgets(config: CheckConfig, siteCaptures: Map<Viewport, Extraction>): BudgetResult[] {
  const out: BudgetResult[] = [];
  for (const name of ABSOLUTE_BUDGETS) {
    const budget = config.budgets[name];
    if (!budget) continue;
    for (const viewport of config.viewports) {
      const capture = siteCaptures.get(viewport);
      const value = capture ? MEASURE[name](capture) : null;
      out.push({ budget: `${name}.max`, viewport, value, limit: budget.max, pass: value !== null && value <= budget.max });
    }
  }
  return out;
}
