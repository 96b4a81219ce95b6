// Reads of the run history: runs, and the results of one run as they were stored. Every query
// filters by owner, so another user's ids find nothing.
import type { Db } from "#server/db/connection";
import type { DiffRow, FindingRow, RunRow, SnapshotRow } from "#server/modules/comparisons/repository";

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
    // Each page's capture in each scheme at each viewport: site by site, its pages in order, light first, desktop first.
    snapshots: db.query<SnapshotRow, [string, string]>(
      `SELECT s.*, p.role AS role, p.path AS path FROM snapshots s JOIN targets t ON t.id = s.target_id LEFT JOIN pages p ON p.id = s.page_id
         WHERE s.run_id = ?1 AND s.owner_id = ?2
           AND s.rowid = (SELECT s2.rowid FROM snapshots s2 WHERE s2.run_id = ?1 AND s2.target_id = s.target_id AND s2.page_id IS s.page_id
                            AND s2.viewport = s.viewport AND s2.color_scheme = s.color_scheme
                          ORDER BY s2.captured_at DESC, s2.rowid DESC LIMIT 1)
         ORDER BY t.created_at, t.rowid, p.position, p.rowid, CASE s.color_scheme WHEN 'light' THEN 0 ELSE 1 END,
                  CASE s.viewport WHEN 'desktop' THEN 0 ELSE 1 END`,
    ),
    // Role (home first), scheme (light first), viewport, then the two sites in the order they were added.
    diffs: db.query<DiffRow, [string, string]>(
      `SELECT d.* FROM diffs d
         JOIN targets a ON a.id = d.target_a_id JOIN targets b ON b.id = d.target_b_id
         WHERE d.run_id = ? AND d.owner_id = ?
         ORDER BY CASE d.role WHEN 'home' THEN 0 WHEN 'pricing' THEN 1 WHEN 'features' THEN 2 WHEN 'signup' THEN 3 WHEN 'blog' THEN 4
                    WHEN 'docs' THEN 5 ELSE 6 END, CASE d.color_scheme WHEN 'light' THEN 0 ELSE 1 END,
                  CASE d.viewport WHEN 'desktop' THEN 0 ELSE 1 END, a.created_at, a.rowid, b.created_at, b.rowid`,
    ),
    findings: db.query<FindingRow, [string, string]>(
      `SELECT f.*, p.role AS role, p.path AS path FROM findings f LEFT JOIN pages p ON p.id = f.page_id
         WHERE f.run_id = ? AND f.owner_id = ? ORDER BY f.position`,
    ),
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
    storage: () => q.storage.get()!,
  };
}

export type HistoryRepository = ReturnType<typeof historyRepository>;
