// What a check run hands back, in-process or from a server: the comparison's report and, when the
// visual budget is on, your page's screenshots (they outlive the temporary data directory).
import type { Viewport } from "#server/modules/capture/model";
import type { ComparisonReport, SnapshotDto } from "#server/modules/comparisons/model";
import type { CheckConfig } from "./config";

export interface CheckRun {
  report: ComparisonReport;
  /** Your page's full-page PNGs by viewport; empty when no visual budget is configured. */
  screenshots: Map<Viewport, Uint8Array>;
}

/** A page that could not be checked (unreachable, refused, timed out): exit 2, named. */
export class CheckRunError extends Error {}

export function assertCompleted(report: ComparisonReport) {
  const failed = report.targets.filter((t) => t.status !== "completed");
  if (failed.length)
    throw new CheckRunError(failed.map((t) => `${t.label} (${t.url}) could not be checked: ${t.error ?? t.status}`).join("; "));
}

/** The snapshots whose screenshots the visual budget compares: your page at each configured viewport. */
export function visualSnapshots(config: CheckConfig, report: ComparisonReport): { viewport: Viewport; snapshot: SnapshotDto }[] {
  if (!config.budgets.visual) return [];
  const site = report.targets.find((t) => t.label === config.site.label);
  return config.viewports.flatMap((viewport) => {
    const snapshot = report.snapshots.find((s) => s.targetId === site?.id && s.viewport === viewport);
    return snapshot ? [{ viewport, snapshot }] : [];
  });
}
