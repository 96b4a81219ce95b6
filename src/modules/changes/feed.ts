// The change feed: stored changes across runs, newest first (TrendHunter's moves across a set, the
// watch digest). It takes a database handle rather than the changes service because the agents run
// in a worker on their own connection.
import type { SqlDb } from "#server/db/sql";
import type { ChangeKind } from "./model";
import { changesRepository } from "./repository";

/** One stored change of one target, as the feed lists it. */
export interface RecentChange {
  ownerId: string;
  comparisonId: string;
  comparisonName: string;
  targetId: string;
  label: string;
  url: string;
  kind: ChangeKind;
  summary: string;
  /** When the run that found it finished (ISO 8601). */
  at: string;
  runId: string;
  /** The run it was compared against, when known. */
  fromRunId?: string | null;
  viewport?: "desktop" | "mobile";
  severity?: "low" | "medium" | "high";
  before?: string | null;
  after?: string | null;
}

/** What TrendHunter and the digest read of the stored changes. */
export interface ChangeHistory {
  /**
   * Every stored change found by runs that finished at or after `sinceIso`, newest run first: one
   * owner's when `ownerId` is given, any owner's otherwise.
   */
  recentChanges(sinceIso: string, ownerId?: string): Promise<RecentChange[]>;
}

/**
 * A week of changes is what TrendHunter reads; past this many the oldest are left out (the feed
 * is newest run first).
 */
export const RECENT_CHANGES_CAP = 20_000;

export function changeHistory(db: SqlDb, cap = RECENT_CHANGES_CAP): ChangeHistory {
  const repo = changesRepository(db);
  return {
    async recentChanges(sinceIso: string, ownerId?: string): Promise<RecentChange[]> {
      return (await repo.recentChanges(sinceIso, ownerId ?? null, cap)).map((r) => ({
        ownerId: r.owner_id,
        comparisonId: r.comparison_id,
        comparisonName: r.comparison_name,
        targetId: r.target_id,
        label: r.label,
        url: r.url,
        kind: r.kind as ChangeKind,
        summary: r.summary,
        at: r.at,
        runId: r.run_id,
        fromRunId: r.from_run_id,
        viewport: r.viewport,
        severity: r.severity,
        before: r.before,
        after: r.after,
      }));
    },
  };
}
