// The pages of an owner's sites. Every query filters by owner, so another user's ids find nothing.
import type { Db } from "#server/db/connection";
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

export function pagesRepository(db: Db) {
  const q = {
    site: db.query<SiteRow, [string, string]>(
      `SELECT t.id, t.comparison_id, t.url, c.status FROM targets t JOIN comparisons c ON c.id = t.comparison_id
         WHERE t.id = ? AND t.owner_id = ?`,
    ),
    pages: db.query<PageRow, [string, string]>("SELECT * FROM pages WHERE target_id = ? AND owner_id = ? ORDER BY position, rowid"),
    page: db.query<PageRow, [string, string]>("SELECT * FROM pages WHERE id = ? AND owner_id = ?"),
    count: db.query<{ n: number; last: number | null }, [string]>(
      "SELECT COUNT(*) AS n, MAX(position) AS last FROM pages WHERE target_id = ?",
    ),
    samePath: db.query<{ id: string }, [string, string]>("SELECT id FROM pages WHERE target_id = ? AND path = ?"),
    insert: db.query<null, [string, string, string, string, string, PageRole, string, number, string]>(
      `INSERT INTO pages (id, target_id, comparison_id, owner_id, path, role, steps, position, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    update: db.query<null, [string, PageRole, string, string, string]>(
      "UPDATE pages SET path = ?, role = ?, steps = ? WHERE id = ? AND owner_id = ?",
    ),
    remove: db.query<null, [string, string]>("DELETE FROM pages WHERE id = ? AND owner_id = ?"),
    screenshots: db.query<{ screenshot_path: string }, [string]>("SELECT DISTINCT screenshot_path FROM snapshots WHERE page_id = ?"),
    pathInUse: db.query<{ n: number }, [string]>("SELECT 1 AS n FROM snapshots WHERE screenshot_path = ? LIMIT 1"),
  };
  return {
    findSite: (targetId: string, ownerId: string) => q.site.get(targetId, ownerId),
    listPages: (targetId: string, ownerId: string) => q.pages.all(targetId, ownerId),
    findPage: (id: string, ownerId: string) => q.page.get(id, ownerId),
    /** How many pages the site has, and the last position taken. */
    countPages: (targetId: string) => q.count.get(targetId) ?? { n: 0, last: null },
    hasPath: (targetId: string, path: string, exceptId?: string) => {
      const hit = q.samePath.get(targetId, path);
      return hit !== null && hit.id !== exceptId;
    },
    insertPage: (p: PageRow) =>
      q.insert.run(p.id, p.target_id, p.comparison_id, p.owner_id, p.path, p.role, p.steps, p.position, p.created_at),
    updatePage: (p: Pick<PageRow, "id" | "owner_id" | "path" | "role" | "steps">) =>
      q.update.run(p.path, p.role, p.steps, p.id, p.owner_id),
    deletePage: (id: string, ownerId: string) => q.remove.run(id, ownerId).changes === 1,
    /** The screenshot files the page's snapshots name (removed with it when no other snapshot shares them). */
    screenshotsOfPage: (id: string) => q.screenshots.all(id).map((r) => r.screenshot_path),
    pathInUse: (path: string) => q.pathInUse.get(path) !== null,
  };
}

export type PagesRepository = ReturnType<typeof pagesRepository>;
