// What the rest of the app may use of the run history without going through its routes: the
// change feed (TrendHunter's moves across a set, the watch digest). It takes a connection rather
// than the history service because the agents run in a worker on their own connection.
import type { Db } from "../../db/connection";
import type { ChangeHistory, RecentChange } from "../agents/logic/set-moves";
import type { ChangeKind } from "../watch/changes/model";
import { historyRepository } from "./repository";

/**
 * A week of changes is what TrendHunter reads; past this many the oldest are left out (the feed
 * is newest run first).
 */
export const RECENT_CHANGES_CAP = 20_000;

export function changeHistory(db: Db, cap = RECENT_CHANGES_CAP): ChangeHistory {
  const repo = historyRepository(db);
  return {
    recentChanges(sinceIso: string, ownerId?: string): RecentChange[] {
      return repo.recentChanges(sinceIso, ownerId ?? null, cap).map((r) => ({
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
