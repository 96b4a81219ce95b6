import type { Extraction, Finding, Snapshot } from "#server/modules/capture/model";

/** What the rules read of a snapshot: the run hands in whole snapshots, tests only these fields. */
export type RuleSnapshot = Pick<Snapshot, "targetId" | "label" | "viewport" | "extraction">;

/** A rule sees one page and its competitors at the same viewport. */
export interface RuleContext {
  page: RuleSnapshot;
  others: RuleSnapshot[];
}

/** A rule's verdict; `rule` names a sub-rule when one rule reports several (axe-core's rule ids). */
export type Draft = Pick<Finding, "group" | "severity" | "title" | "evidence" | "fix"> & { rule?: string };

export interface Rule {
  /** Stable name; part of the finding id, so renaming a rule re-keys its findings. */
  id: string;
  /**
   * "page": the same at every viewport (meta description, alt text), reported once per target —
   * on desktop when it was captured. "viewport" (default): judged per viewport.
   */
  scope?: "page" | "viewport";
  /** One finding, none, or one per sub-rule (each with its own `rule`). */
  run(ctx: RuleContext): Draft | Draft[] | null;
}

/** The competitor with the lowest (best) value of `pick`, ignoring pages where it is unknown. */
export function best(pages: RuleSnapshot[], pick: (e: Extraction) => number | null): { page: RuleSnapshot; value: number } | null {
  let found: { page: RuleSnapshot; value: number } | null = null;
  for (const page of pages) {
    const value = pick(page.extraction);
    if (value === null || !Number.isFinite(value)) continue;
    if (!found || value < found.value) found = { page, value };
  }
  return found;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
