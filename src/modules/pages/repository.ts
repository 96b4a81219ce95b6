// The pages of an owner's sites. Every query filters by owner, so another user's ids find nothing.
import type { SqlDb } from "#server/db/sql";
import type { PageRole } from "#server/modules/capture/model";

export interface PageRow {
  id: string;
  target_id: string;
  comparison_id: string;
  owner_id: string;
  path: string;
  role: PageRole;
  /** JSON array of Step. */
  steps: string;
  position: number;
  created_at: string;
}

/** The site a page belongs to, as the pages routes need it. */
export interface SiteRow {
  id: string;
  comparison_id: string;
  url: string;
  /** The comparison's status: a page is not deleted from a running comparison. */
  status: string;
}

export function pagesRepository(db: SqlDb) {
  return {
    findSite: (targetId: string, ownerId: string) =>
      db.one<SiteRow>(
        `SELECT t.id, t.comparison_id, t.url, c.status FROM targets t JOIN comparisons c ON c.id = t.comparison_id
           WHERE t.id = $1 AND t.owner_id = $2`,
        [targetId, ownerId],
      ),
    // Ties on position (none expected) fall back to the id: UUIDv7, in the order added.
    listPages: (targetId: string, ownerId: string) =>
      db.all<PageRow>("SELECT * FROM pages WHERE target_id = $1 AND owner_id = $2 ORDER BY position, id", [targetId, ownerId]),
    findPage: (id: string, ownerId: string) => db.one<PageRow>("SELECT * FROM pages WHERE id = $1 AND owner_id = $2", [id, ownerId]),
    /** How many pages the site has, and the last position taken. */
    countPages: async (targetId: string) =>
      (await db.one<{ n: number; last: number | null }>("SELECT COUNT(*) AS n, MAX(position) AS last FROM pages WHERE target_id = $1", [
        targetId,
      ])) ?? { n: 0, last: null },
    hasPath: async (targetId: string, path: string, exceptId?: string) => {
      const hit = await db.one<{ id: string }>("SELECT id FROM pages WHERE target_id = $1 AND path = $2", [targetId, path]);
      return hit !== null && hit.id !== exceptId;
    },
    insertPage: (p: PageRow) =>
      db.run(
        `INSERT INTO pages (id, target_id, comparison_id, owner_id, path, role, steps, position, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [p.id, p.target_id, p.comparison_id, p.owner_id, p.path, p.role, p.steps, p.position, p.created_at],
      ),
    updatePage: (p: Pick<PageRow, "id" | "owner_id" | "path" | "role" | "steps">) =>
      db.run("UPDATE pages SET path = $1, role = $2, steps = $3 WHERE id = $4 AND owner_id = $5", [
        p.path,
        p.role,
        p.steps,
        p.id,
        p.owner_id,
      ]),
    deletePage: async (id: string, ownerId: string) =>
      (await db.run("DELETE FROM pages WHERE id = $1 AND owner_id = $2", [id, ownerId])) === 1,
    /** The screenshot files the page's snapshots name (removed with it when no other snapshot shares them). */
    screenshotsOfPage: async (id: string) =>
      (await db.all<{ screenshot_path: string }>("SELECT DISTINCT screenshot_path FROM snapshots WHERE page_id = $1", [id])).map(
        (r) => r.screenshot_path,
      ),
    pathInUse: async (path: string) => (await db.one("SELECT 1 AS n FROM snapshots WHERE screenshot_path = $1 LIMIT 1", [path])) !== null,
  };
}

export type PagesRepository = ReturnType<typeof pagesRepository>;
