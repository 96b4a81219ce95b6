// What changed on one target between two captures, by design meaning. Pure: the caller loads the
// two extractions (same target, same viewport), the target's timing history, its volatility
// reports and — for `visual` — the pixel diff of the two screenshots (see visual.ts).

import type { Extraction } from "#server/modules/capture/model";
import { copyChanges } from "./copy";
import { ctaChanges } from "./cta";
import { layoutChanges } from "./layout";
import { metaChanges } from "./meta";
import { severityRank, type DetectedChange as Change, type ChangeKind, type Severity } from "../model";
import { paletteChanges } from "./palette";
import { timingChanges, type TimingSample } from "./timing";
import { typographyChanges } from "./typography";
import { visualChange, type VisualDiff } from "./visual";
import { emptyVolatility, type Volatility } from "#server/modules/capture/public";

export interface DetectInput {
  before: Extraction;
  after: Extraction;
  /** The target's earlier timing samples at this viewport, `before`'s included, `after`'s not. */
  timingHistory?: TimingSample[];
  /** Merged volatility of this target (mergeVolatility of before, after and earlier reports). */
  volatility?: Volatility;
  /** The pixel diff of the two screenshots, when both are at hand. */
  visual?: VisualDiff | null;
}

const KIND_ORDER: ChangeKind[] = ["cta", "copy", "palette", "typography", "layout", "meta", "timing", "visual"];

export function detectChanges(input: DetectInput): Change[] {
  const { before, after } = input;
  if (before.viewport !== after.viewport) throw new Error("detectChanges compares captures at one viewport");
  const v = input.volatility ?? emptyVolatility();
  const changes = [
    ...ctaChanges(before, after, v),
    ...copyChanges(before, after, v),
    ...paletteChanges(before, after, v),
    ...typographyChanges(before, after),
    ...layoutChanges(before, after, v),
    ...metaChanges(before, after),
    ...timingChanges(input.timingHistory ?? [], after),
  ];
  const visual = input.visual ? visualChange(input.visual, after.viewport) : null;
  if (visual) changes.push(visual);
  return changes.sort(
    (a, b) => severityRank[b.severity] - severityRank[a.severity] || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind),
  );
}

/** The alert filter: changes at or above `minSeverity`, of the given kinds (all when empty). */
export function filterChanges<C extends Change>(changes: C[], minSeverity: Severity, kinds: readonly ChangeKind[] = []): C[] {
  return changes.filter((c) => severityRank[c.severity] >= severityRank[minSeverity] && (kinds.length === 0 || kinds.includes(c.kind)));
}
