import type { Db } from "#server/db/connection";

interface SnapshotRef {
  id: string;
  target_id: string;
  comparison_id: string;
  viewport: "desktop" | "mobile";
  screenshot_path: string;
}

export function filmstripRepository(db: Db) {
  const q = {
    comparison: db.query<{ id: string }, [string, string]>("SELECT id FROM comparisons WHERE id = ? AND owner_id = ?"),
    // The snapshot that stands for each page, colour scheme and viewport: the latest (spec §3), as the snapshots API answers.
    latest: db.query<SnapshotRef, [string, string]>(
      `SELECT s.id, s.target_id, s.comparison_id, s.viewport, s.screenshot_path FROM snapshots s
         WHERE s.comparison_id = ? AND s.owner_id = ?
           AND s.rowid = (SELECT s2.rowid FROM snapshots s2
                           WHERE s2.page_id = s.page_id AND s2.viewport = s.viewport AND s2.color_scheme = s.color_scheme
                          ORDER BY s2.captured_at DESC, s2.rowid DESC LIMIT 1)`,
    ),
    snapshot: db.query<SnapshotRef, [string, string]>(
      "SELECT id, target_id, comparison_id, viewport, screenshot_path FROM snapshots WHERE id = ? AND owner_id = ?",
    ),
    snapshotIds: db.query<{ id: string }, [string]>("SELECT id FROM snapshots WHERE comparison_id = ?"),
  };
  return {
    ownsComparison: (ownerId: string, comparisonId: string) => q.comparison.get(comparisonId, ownerId) !== null,
    latestSnapshots: (ownerId: string, comparisonId: string) => q.latest.all(comparisonId, ownerId),
    findSnapshot: (ownerId: string, snapshotId: string) => q.snapshot.get(snapshotId, ownerId),
    snapshotIds: (comparisonId: string) => new Set(q.snapshotIds.all(comparisonId).map((r) => r.id)),
  };
}
export type FilmstripRepository = ReturnType<typeof filmstripRepository>;
