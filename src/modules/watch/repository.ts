// What the watch reads about comparisons: ownership, names, and the capture work already in
// flight (for the scheduled-run budget). The comparisons module owns these tables; this is read-only.
import type { SqlDb } from "#server/db/sql";

export interface WatchedComparison {
  id: string;
  owner_id: string;
  name: string;
  status: string;
  target_count: number;
  /** Pages of its sites (each target has its home page at least), and its colour schemes (JSON array). */
  page_count: number;
  color_schemes: string;
}

export interface PendingPages {
  /** Pages of running comparisons not yet captured, everyone's. */
  total: number;
  /** The same for one owner. */
  owner: number;
}

// A running comparison's unfinished pages (never below zero) are queued or being captured right now.
const UNFINISHED =
  "CASE WHEN COALESCE(progress_total, 0) > COALESCE(progress_done, 0) THEN COALESCE(progress_total, 0) - COALESCE(progress_done, 0) ELSE 0 END";

export function watchRepository(db: SqlDb) {
  return {
    owns: async (comparisonId: string, ownerId: string): Promise<boolean> =>
      (await db.one("SELECT 1 AS one FROM comparisons WHERE id = $1 AND owner_id = $2", [comparisonId, ownerId])) !== null,
    find: (comparisonId: string) =>
      db.one<WatchedComparison>(
        `SELECT c.id, c.owner_id, c.name, c.status,
                (SELECT COUNT(*) FROM targets t WHERE t.comparison_id = c.id) AS target_count,
                (SELECT COUNT(*) FROM pages p WHERE p.comparison_id = c.id) AS page_count, c.color_schemes
           FROM comparisons c WHERE c.id = $1`,
        [comparisonId],
      ),
    async pendingPages(ownerId: string): Promise<PendingPages> {
      const r = await db.one<{ total: number | null; owner: number | null }>(
        `SELECT SUM(${UNFINISHED}) AS total, SUM(CASE WHEN owner_id = $1 THEN ${UNFINISHED} ELSE 0 END) AS owner
           FROM comparisons WHERE status = 'running'`,
        [ownerId],
      );
      return { total: r?.total ?? 0, owner: r?.owner ?? 0 };
    },
  };
}

export type WatchRepository = ReturnType<typeof watchRepository>;
