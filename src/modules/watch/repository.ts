// What the watch reads about comparisons: ownership, names, and the capture work already in
// flight (for the scheduled-run budget). The comparisons module owns these tables; this is read-only.
import type { Db } from "#server/db/connection";

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

export function watchRepository(db: Db) {
  const q = {
    owns: db.query<{ one: number }, [string, string]>("SELECT 1 AS one FROM comparisons WHERE id = ? AND owner_id = ?"),
    find: db.query<WatchedComparison, [string]>(
      `SELECT c.id, c.owner_id, c.name, c.status,
              (SELECT COUNT(*) FROM targets t WHERE t.comparison_id = c.id) AS target_count,
              (SELECT COUNT(*) FROM pages p WHERE p.comparison_id = c.id) AS page_count, c.color_schemes
         FROM comparisons c WHERE c.id = ?`,
    ),
    // A running comparison's unfinished pages are queued or being captured right now.
    pending: db.query<{ total: number | null; owner: number | null }, [string]>(
      `SELECT SUM(MAX(COALESCE(progress_total, 0) - COALESCE(progress_done, 0), 0)) AS total,
              SUM(CASE WHEN owner_id = ?1 THEN MAX(COALESCE(progress_total, 0) - COALESCE(progress_done, 0), 0) ELSE 0 END) AS owner
         FROM comparisons WHERE status = 'running'`,
    ),
  };
  return {
    owns: (comparisonId: string, ownerId: string): boolean => q.owns.get(comparisonId, ownerId) !== null,
    find: (comparisonId: string): WatchedComparison | null => q.find.get(comparisonId),
    pendingPages(ownerId: string): PendingPages {
      const r = q.pending.get(ownerId);
      return { total: r?.total ?? 0, owner: r?.owner ?? 0 };
    },
  };
}

export type WatchRepository = ReturnType<typeof watchRepository>;
