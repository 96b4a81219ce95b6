import type { SqlDb } from "#server/db/sql";

interface SnapshotRef {
  id: string;
  target_id: string;
  comparison_id: string;
  viewport: "desktop" | "mobile";
  screenshot_path: string;
}

export function filmstripRepository(db: SqlDb) {
  return {
    ownsComparison: async (ownerId: string, comparisonId: string) =>
      (await db.one("SELECT id FROM comparisons WHERE id = $1 AND owner_id = $2", [comparisonId, ownerId])) !== null,
    // The snapshot that stands for each page, colour scheme and viewport: the latest (spec §3), as the snapshots API answers
    // (ids are UUIDv7: the newer breaks a tie).
    latestSnapshots: (ownerId: string, comparisonId: string) =>
      db.all<SnapshotRef>(
        `SELECT s.id, s.target_id, s.comparison_id, s.viewport, s.screenshot_path FROM snapshots s
           WHERE s.comparison_id = $1 AND s.owner_id = $2
             AND s.id = (SELECT s2.id FROM snapshots s2
                          WHERE s2.page_id = s.page_id AND s2.viewport = s.viewport AND s2.color_scheme = s.color_scheme
                          ORDER BY s2.captured_at DESC, s2.id DESC LIMIT 1)`,
        [comparisonId, ownerId],
      ),
    findSnapshot: (ownerId: string, snapshotId: string) =>
      db.one<SnapshotRef>("SELECT id, target_id, comparison_id, viewport, screenshot_path FROM snapshots WHERE id = $1 AND owner_id = $2", [
        snapshotId,
        ownerId,
      ]),
    snapshotIds: async (comparisonId: string) =>
      new Set((await db.all<{ id: string }>("SELECT id FROM snapshots WHERE comparison_id = $1", [comparisonId])).map((r) => r.id)),
  };
}
export type FilmstripRepository = ReturnType<typeof filmstripRepository>;
