// Reads of the run history: runs, and the results of one run as they were stored. Every query
// filters by owner, so another user's ids find nothing.
import type { Db } from "#server/db/connection";
import type { Viewport } from "#server/modules/capture/model";
import type { DiffRow, FindingRow, RunRow, SnapshotRow } from "#server/modules/comparisons/repository";
import type { TimingSample } from "#server/modules/watch/changes/timing";
import { volatilityOf } from "#server/modules/watch/public";

export interface ChangeRow {
  id: string;
  run_id: string;
  from_run_id: string;
  comparison_id: string;
  owner_id: string;
  target_id: string;
  viewport: Viewport;
  kind: string;
  severity: "low" | "medium" | "high";
  summary: string;
  before: string | null;
  after: string | null;
  evidence: string;
  position: number;
}

/** A stored change with what the change feed names it by (comparison, site, run). */
export interface RecentChangeRow {
  owner_id: string;
  comparison_id: string;
  comparison_name: string;
  target_id: string;
  label: string;
  url: string;
  viewport: Viewport;
  kind: string;
  severity: "low" | "medium" | "high";
  summary: string;
  before: string | null;
  after: string | null;
  at: string;
  run_id: string;
  from_run_id: string;
}

export function historyRepository(db: Db) {
  const q = {
    runs: db.query<RunRow, [string, string]>("SELECT * FROM runs WHERE comparison_id = ? AND owner_id = ? ORDER BY number DESC"),
    run: db.query<RunRow, [string, string, string]>("SELECT * FROM runs WHERE id = ? AND comparison_id = ? AND owner_id = ?"),
    lastCompleted: db.query<RunRow, [string, string, number]>(
      "SELECT * FROM runs WHERE comparison_id = ? AND owner_id = ? AND status = 'completed' ORDER BY number DESC LIMIT ?",
    ),
    completedBefore: db.query<RunRow, [string, number]>(
      "SELECT * FROM runs WHERE comparison_id = ? AND status = 'completed' AND number < ? ORDER BY number DESC LIMIT 1",
    ),
    // Run #1 of a comparison from before run history holds up to 3 captures per page: the newest is the run's.
    snapshots: db.query<SnapshotRow, [string, string]>(
      `SELECT s.* FROM snapshots s JOIN targets t ON t.id = s.target_id
         WHERE s.run_id = ?1 AND s.owner_id = ?2
           AND s.rowid = (SELECT s2.rowid FROM snapshots s2 WHERE s2.run_id = ?1 AND s2.target_id = s.target_id AND s2.viewport = s.viewport
                          ORDER BY s2.captured_at DESC, s2.rowid DESC LIMIT 1)
         ORDER BY t.created_at, t.rowid, CASE s.viewport WHEN 'desktop' THEN 0 ELSE 1 END`,
    ),
    diffs: db.query<DiffRow, [string, string]>(
      `SELECT d.* FROM diffs d
         JOIN targets a ON a.id = d.target_a_id JOIN targets b ON b.id = d.target_b_id
         WHERE d.run_id = ? AND d.owner_id = ?
         ORDER BY CASE d.viewport WHEN 'desktop' THEN 0 ELSE 1 END, a.created_at, a.rowid, b.created_at, b.rowid`,
    ),
    findings: db.query<FindingRow, [string, string]>("SELECT * FROM findings WHERE run_id = ? AND owner_id = ? ORDER BY position"),
    /** Timing and volatility of a page's captures in completed runs up to and including run `number`, newest first. */
    pageHistory: db.query<{ timing: string | null; volatility: string | null }, [string, Viewport, string, number, number]>(
      `SELECT json_extract(s.extraction, '$.timing') AS timing, json_extract(s.extraction, '$.volatility') AS volatility
         FROM snapshots s JOIN runs r ON r.id = s.run_id
         WHERE s.target_id = ? AND s.viewport = ? AND r.comparison_id = ? AND r.status = 'completed' AND r.number <= ?
         ORDER BY r.number DESC LIMIT ?`,
    ),
    changes: db.query<ChangeRow, [string, string, string]>(
      "SELECT * FROM run_changes WHERE run_id = ? AND from_run_id = ? AND owner_id = ? ORDER BY target_id, position",
    ),
    // Every run's stored changes in one pass, found through runs (UNIQUE comparison_id, number) and
    // run_changes_run; a run stores its changes against one earlier run only.
    changeCounts: db.query<{ run_id: string; kind: string; severity: string; n: number }, [string, string]>(
      `SELECT c.run_id, c.kind, c.severity, COUNT(*) AS n
         FROM runs r JOIN run_changes c ON c.run_id = r.id
        WHERE r.comparison_id = ? AND r.owner_id = ?
        GROUP BY c.run_id, c.kind, c.severity`,
    ),
    hasChanges: db.query<{ n: number }, [string, string]>("SELECT COUNT(*) AS n FROM run_changes WHERE run_id = ? AND from_run_id = ?"),
    insertChange: db.query<
      null,
      [string, string, string, string, string, string, Viewport, string, string, string, string | null, string | null, string, number]
    >(
      `INSERT INTO run_changes (id, run_id, from_run_id, comparison_id, owner_id, target_id, viewport, kind, severity, summary, before, after, evidence, position)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // Runs are few per comparison (HISTORY_KEEP), so the window is found on runs and each run's
    // changes through run_changes_run. ?2 NULL: every owner (TrendHunter scans them all).
    recentChanges: db.query<RecentChangeRow, [string, string | null, number]>(
      `SELECT c.owner_id, c.comparison_id, cmp.name AS comparison_name, c.target_id, t.label, t.url, c.viewport, c.kind, c.severity,
              c.summary, c.before, c.after, r.finished_at AS at, c.run_id, c.from_run_id
         FROM runs r
         JOIN run_changes c ON c.run_id = r.id
         JOIN comparisons cmp ON cmp.id = c.comparison_id AND cmp.owner_id = c.owner_id
         JOIN targets t ON t.id = c.target_id AND t.owner_id = c.owner_id
        WHERE r.status = 'completed' AND r.finished_at >= ?1 AND (?2 IS NULL OR r.owner_id = ?2) AND c.owner_id = r.owner_id
        ORDER BY r.finished_at DESC, r.id, c.target_id, CASE c.viewport WHEN 'desktop' THEN 0 ELSE 1 END, c.position
        LIMIT ?3`,
    ),
    setChangeCount: db.query<null, [number, string]>("UPDATE runs SET change_count = ? WHERE id = ?"),
    storage: db.query<{ runs: number; snapshots: number; files: number; bytes: number | null; raw: number | null }, []>(
      `SELECT (SELECT COUNT(*) FROM runs) AS runs, COUNT(*) AS snapshots, COUNT(DISTINCT screenshot_path) AS files,
              (SELECT SUM(b) FROM (SELECT MAX(COALESCE(file_bytes, 0)) AS b FROM snapshots GROUP BY screenshot_path)) AS bytes,
              SUM(COALESCE(file_bytes, 0)) AS raw
         FROM snapshots`,
    ),
  };

  return {
    listRuns: (comparisonId: string, ownerId: string) => q.runs.all(comparisonId, ownerId),
    findRun: (runId: string, comparisonId: string, ownerId: string) => q.run.get(runId, comparisonId, ownerId),
    lastCompletedRuns: (comparisonId: string, ownerId: string, n: number) => q.lastCompleted.all(comparisonId, ownerId, n),
    completedRunBefore: (comparisonId: string, number: number) => q.completedBefore.get(comparisonId, number),
    runSnapshots: (runId: string, ownerId: string) => q.snapshots.all(runId, ownerId),
    runDiffs: (runId: string, ownerId: string) => q.diffs.all(runId, ownerId),
    runFindings: (runId: string, ownerId: string) => q.findings.all(runId, ownerId),
    /** A page's earlier captures (newest first): timing samples for its noise, volatility reports for what moves on it. */
    pageHistory: (targetId: string, viewport: Viewport, comparisonId: string, upToNumber: number, limit: number) => {
      const rows = q.pageHistory.all(targetId, viewport, comparisonId, upToNumber, limit);
      return {
        timings: rows.flatMap((r) => (r.timing ? [JSON.parse(r.timing) as TimingSample] : [])),
        volatility: rows.flatMap((r) => (r.volatility ? [volatilityOf({ volatility: JSON.parse(r.volatility) as unknown })] : [])),
      };
    },
    changes: (runId: string, fromRunId: string, ownerId: string) => q.changes.all(runId, fromRunId, ownerId),
    /** Per run of the comparison, how many stored changes of each kind and severity. */
    changeCounts: (comparisonId: string, ownerId: string) => q.changeCounts.all(comparisonId, ownerId),
    hasChanges: (runId: string, fromRunId: string) => (q.hasChanges.get(runId, fromRunId)?.n ?? 0) > 0,
    /** A run's changes against an earlier run, with its change count; one unit. */
    storeChanges: (runId: string, rows: ChangeRow[], count: number) => {
      for (const c of rows)
        q.insertChange.run(
          c.id,
          c.run_id,
          c.from_run_id,
          c.comparison_id,
          c.owner_id,
          c.target_id,
          c.viewport,
          c.kind,
          c.severity,
          c.summary,
          c.before,
          c.after,
          c.evidence,
          c.position,
        );
      q.setChangeCount.run(count, runId);
    },
    /** Changes found by runs that finished at or after `sinceIso`, newest run first; one owner's or (null) everyone's. */
    recentChanges: (sinceIso: string, ownerId: string | null, limit: number) => q.recentChanges.all(sinceIso, ownerId, limit),
    storage: () => q.storage.get()!,
  };
}

export type HistoryRepository = ReturnType<typeof historyRepository>;
