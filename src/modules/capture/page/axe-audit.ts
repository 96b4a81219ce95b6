// axe-core inside the captured page (decision 0015). The capture evaluates axe's own source into
// the page under AXE_GLOBAL (page-script/axe.ts) and then calls `audit`, once, on the page as the
// capture last looked at it. axe decides contrast wherever the CSS tells it the background; of the
// text runs the screenshot's pixels were asked about (the last measurement's contrast probes), the
// audit names the ones axe marked "incomplete" (over an image, a gradient, another element): only
// those keep the painted verdict, so axe and the pixels never report the same element.

import { bannerElements } from "../consent/page-masks";
import { summariseAxe, AXE_RUN_OPTIONS, type AxeResultsLike } from "../gatherers/axe-results";
import { probedElements } from "../gatherers/accessibility";
import type { AccessibilityAudit } from "../model";
import { AXE_GLOBAL } from "./global";

interface AxeApi {
  version: string;
  run(
    context: Document | { exclude: Element[] },
    options: object,
  ): Promise<AxeResultsLike & { incomplete: { id: string; nodes: { element?: Element }[] }[] }>;
}

export interface AuditAnswer {
  audit: AccessibilityAudit;
  /**
   * Indexes of the last measurement's contrast probes whose contrast axe could not decide; null
   * when this document was not measured (its probes are then all the pixels').
   */
  undecidedProbes: number[] | null;
}

/**
 * Runs axe on the page as it is now. "no-axe" when axe's source has not been evaluated into this
 * document yet (the caller does, and calls again).
 */
export async function audit(_: void): Promise<"no-axe" | AuditAnswer> {
  const axe = (window as unknown as Record<string, AxeApi | undefined>)[AXE_GLOBAL];
  if (!axe || typeof axe.run !== "function") return "no-axe";
  const started = performance.now();
  try {
    // A consent banner left on screen is not the page: none of its elements may become a finding.
    const banners = bannerElements();
    const results = await axe.run(banners.length ? { exclude: banners } : document, AXE_RUN_OPTIONS);
    const undecided = new Set<Element>();
    for (const rule of results.incomplete)
      if (rule.id === "color-contrast") for (const n of rule.nodes) if (n.element) undecided.add(n.element);
    const probes = probedElements();
    return {
      audit: summariseAxe(results, performance.now() - started, axe.version),
      undecidedProbes: probes && probes.flatMap((el, i) => (undecided.has(el) ? [i] : [])),
    };
  } catch (e) {
    const error = `axe-core failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300);
    return { audit: { engine: `axe-core ${axe.version}`, ms: 0, violations: [], incomplete: [], error }, undecidedProbes: null };
  }
}
