// Reads of the run history: runs, and the results of one run as they were stored. Every query
// filters by owner, so another user's ids find nothing.
import type { SqlDb } from "#server/db/sql";
import type { DiffRow, FindingRow, RunRow, SnapshotRow } from "#server/modules/comparisons/repository";

export function historyRepository(db: SqlDb) {
  return {
    listRuns: (comparisonId: string, ownerId: string) =>
      db.all<RunRow>("SELECT * FROM runs WHERE comparison_id = $1 AND owner_id = $2 ORDER BY number DESC", [comparisonId, ownerId]),
    findRun: (runId: string, comparisonId: string, ownerId: string) =>
      db.one<RunRow>("SELECT * FROM runs WHERE id = $1 AND comparison_id = $2 AND owner_id = $3", [runId, comparisonId, ownerId]),
    lastCompletedRuns: (comparisonId: string, ownerId: string, n: number) =>
      db.all<RunRow>(
        "SELECT * FROM runs WHERE comparison_id = $1 AND owner_id = $2 AND status = 'completed' ORDER BY number DESC LIMIT $3",
        [comparisonId, ownerId, n],
      ),
    completedRunBefore: (comparisonId: string, number: number) =>
      db.one<RunRow>("SELECT * FROM runs WHERE comparison_id = $1 AND status = 'completed' AND number < $2 ORDER BY number DESC LIMIT 1", [
        comparisonId,
        number,
      ]),
    // Run #1 of a comparison from before run history holds up to 3 captures per page: the newest is the run's.
    // Each page's capture in each scheme at each viewport: site by site, its pages in order, light first, desktop first
    // (ids are UUIDv7: creation order breaks a tie).
    runSnapshots: (runId: string, ownerId: string) =>
      db.all<SnapshotRow>(
        `SELECT s.*, p.role AS role, p.path AS path FROM snapshots s JOIN targets t ON t.id = s.target_id LEFT JOIN pages p ON p.id = s.page_id
           WHERE s.run_id = $1 AND s.owner_id = $2
             AND s.id = (SELECT s2.id FROM snapshots s2 WHERE s2.run_id = $1 AND s2.target_id = s.target_id
                            AND (s2.page_id = s.page_id OR (s2.page_id IS NULL AND s.page_id IS NULL))
                            AND s2.viewport = s.viewport AND s2.color_scheme = s.color_scheme
                          ORDER BY s2.captured_at DESC, s2.id DESC LIMIT 1)
           ORDER BY t.created_at, t.id, p.position, p.id, CASE s.color_scheme WHEN 'light' THEN 0 ELSE 1 END,
                    CASE s.viewport WHEN 'desktop' THEN 0 ELSE 1 END`,
        [runId, ownerId],
      ),
    // Role (home first), scheme (light first), viewport, then the two sites in the order they were added.
    runDiffs: (runId: string, ownerId: string) =>
      db.all<DiffRow>(
        `SELECT d.* FROM diffs d
           JOIN targets a ON a.id = d.target_a_id JOIN targets b ON b.id = d.target_b_id
           WHERE d.run_id = $1 AND d.owner_id = $2
           ORDER BY CASE d.role WHEN 'home' THEN 0 WHEN 'pricing' THEN 1 WHEN 'features' THEN 2 WHEN 'signup' THEN 3 WHEN 'blog' THEN 4
                      WHEN 'docs' THEN 5 ELSE 6 END, CASE d.color_scheme WHEN 'light' THEN 0 ELSE 1 END,
                    CASE d.viewport WHEN 'desktop' THEN 0 ELSE 1 END, a.created_at, a.id, b.created_at, b.id`,
        [runId, ownerId],
      ),
    runFindings: (runId: string, ownerId: string) =>
      db.all<FindingRow>(
        `SELECT f.*, p.role AS role, p.path AS path FROM findings f LEFT JOIN pages p ON p.id = f.page_id
           WHERE f.run_id = $1 AND f.owner_id = $2 ORDER BY f.position`,
        [runId, ownerId],
      ),
    storage: async () =>
      (await db.one<{ runs: number; snapshots: number; files: number; bytes: number | null; raw: number | null }>(
        `SELECT (SELECT COUNT(*) FROM runs) AS runs, COUNT(*) AS snapshots, COUNT(DISTINCT screenshot_path) AS files,
                (SELECT SUM(b) FROM (SELECT MAX(COALESCE(file_bytes, 0)) AS b FROM snapshots GROUP BY screenshot_path) AS per_file) AS bytes,
                SUM(COALESCE(file_bytes, 0)) AS raw
           FROM snapshots`,
      ))!,
  };
}

export type HistoryRepository = ReturnType<typeof historyRepository>;
