// The "specific fixes": a deterministic rules engine over the extracted data. Every finding names
// the target that should change, the measured values behind it (with the competitors' values
// where the rule is relative) and a concrete fix. Same input -> same findings, same ids.

import type { Finding, FindingGroup, Viewport } from "#server/modules/capture/model";
import { sha256 } from "#server/lib/ids";
import { accessibilityRules } from "./findings/accessibility";
import { copyRules } from "./findings/copy";
import { designRules } from "./findings/design";
import { withoutMasked } from "./findings/masked";
import { pageProblemRules } from "./findings/page-problems";
import type { RuleSnapshot, Rule } from "./findings/types";
import { timingRules } from "./findings/timing";
import { uxRules } from "./findings/ux";

export type { RuleSnapshot } from "./findings/types";

export const RULES: Rule[] = [...designRules, ...uxRules, ...accessibilityRules, ...pageProblemRules, ...copyRules, ...timingRules];

const SEVERITY_ORDER = { high: 0, medium: 1, low: 2 } as const;
const GROUP_ORDER: Record<FindingGroup, number> = { design: 0, ux: 1, copy: 2, timing: 3 };
const VIEWPORT_ORDER: Record<Viewport, number> = { desktop: 0, mobile: 1 };

export function findingId(rule: string, targetId: string, viewport: Viewport): string {
  return sha256(`${rule}|${targetId}|${viewport}`).slice(0, 24);
}

/** Findings for every target relative to the others; highest severity first. */
export function findingsFor(pages: RuleSnapshot[]): Finding[] {
  const targets = pages.map(withoutMasked);
  const order = new Map<string, number>();
  for (const t of targets) if (!order.has(t.targetId)) order.set(t.targetId, order.size);
  const desktopTargets = new Set(targets.filter((t) => t.viewport === "desktop").map((t) => t.targetId));

  const out: Finding[] = [];
  for (const page of targets) {
    const others = targets.filter((t) => t.viewport === page.viewport && t.targetId !== page.targetId);
    for (const rule of RULES) {
      if (rule.scope === "page" && page.viewport !== "desktop" && desktopTargets.has(page.targetId)) continue;
      const drafts = rule.run({ page, others });
      for (const { rule: sub, ...draft } of drafts === null ? [] : Array.isArray(drafts) ? drafts : [drafts]) {
        const name = sub ?? rule.id;
        out.push({
          id: findingId(name, page.targetId, page.viewport),
          targetId: page.targetId,
          viewport: page.viewport,
          source: "rules",
          ...draft,
          rule: name,
        });
      }
    }
  }
  return out.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      GROUP_ORDER[a.group] - GROUP_ORDER[b.group] ||
      order.get(a.targetId)! - order.get(b.targetId)! ||
      VIEWPORT_ORDER[a.viewport] - VIEWPORT_ORDER[b.viewport] ||
      a.id.localeCompare(b.id),
  );
}
