// axe-core inside the captured page (decision 0015). The capture evaluates axe's own source into
// the page under AXE_GLOBAL (page-script/axe.ts) and then calls `audit`, which runs it once on the
// settled page and keeps the summary for `measure`. axe decides contrast wherever the CSS tells it
// the background; the text it marks "incomplete" (over an image, a gradient, another element) is
// left to the painted-contrast method, so the two never report the same element.

import { summariseAxe, AXE_RUN_OPTIONS, type AxeResultsLike } from "../gatherers/axe-results";
import type { AccessibilityAudit } from "../model";
import { AXE_GLOBAL } from "./global";

interface AxeApi {
  version: string;
  run(context: Document, options: object): Promise<AxeResultsLike & { incomplete: { id: string; nodes: { element?: Element }[] }[] }>;
}

type AuditState =
  | { status: "running" }
  | { status: "done"; audit: AccessibilityAudit; undecidedContrast: Set<Element> }
  | { status: "failed"; error: string };

let state: AuditState | null = null;

/**
 * Runs axe on the page as it is now. "no-axe" when axe's source has not been evaluated into this
 * document yet (the caller does, and calls again).
 */
export async function audit(_: void): Promise<"no-axe" | "done" | "failed"> {
  const axe = (window as unknown as Record<string, AxeApi | undefined>)[AXE_GLOBAL];
  if (!axe || typeof axe.run !== "function") return "no-axe";
  state = { status: "running" };
  const started = performance.now();
  try {
    const results = await axe.run(document, AXE_RUN_OPTIONS);
    const undecidedContrast = new Set<Element>();
    for (const rule of results.incomplete)
      if (rule.id === "color-contrast") for (const n of rule.nodes) if (n.element) undecidedContrast.add(n.element);
    state = { status: "done", audit: summariseAxe(results, performance.now() - started, axe.version), undecidedContrast };
    return "done";
  } catch (e) {
    state = { status: "failed", error: `axe-core failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
    return "failed";
  }
}

/** The last audit's summary, or why there is none. */
export function lastAudit(): AccessibilityAudit {
  if (state?.status === "done") return state.audit;
  const error =
    state === null ? "axe-core was not run on this page" : state.status === "running" ? "axe-core did not finish in time" : state.error;
  return { engine: "axe-core", ms: 0, violations: [], incomplete: [], error };
}

/**
 * The text elements whose contrast axe could not decide, when axe ran; null when it did not (then
 * every run CSS cannot clear is left to the pixels, as without axe).
 */
export function undecidedContrast(): Set<Element> | null {
  return state?.status === "done" ? state.undecidedContrast : null;
}
