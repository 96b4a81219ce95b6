// The stored changes between runs (run_changes, and each run's change count), and what change
// detection reads of a page's earlier captures. Every read of changes filters by owner, except the
// feed across all owners TrendHunter scans.
import type { SqlDb } from "#server/db/sql";
import type { PageRole, Viewport } from "#server/modules/capture/model";

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
  /** The page the change is on and the scheme it was captured in (absent: the home page, light). */
  page_id?: string | null;
  color_scheme?: "light" | "dark";
  /** The page's role and path when the change was found (read: the page's own when the row has none). */
  role?: string | null;
  path?: string | null;
}

/** The pages one source of a site listed in one run (JSON of ListedPage[]), or null: not read in full. */
export interface PageSetRow {
  run_id: string;
  target_id: string;
  owner_id: string;
  nav: string | null;
  sitemap: string | null;
  listed_at: string;
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

/** One earlier capture of a page: its extraction's timing and volatility report, as stored (JSON). */
export interface PageHistoryRow {
  timing: string | null;
  volatility: string | null;
}

// A parameter that may be NULL ("any") is cast where it is tested for NULL: PostgreSQL cannot tell
// its type from `$n IS NULL` alone.
export function changesRepository(db: SqlDb) {
  const { jsonText } = db.dialect;
  return {
    /**
     * Timing and volatility of a page's captures in completed runs up to and including run
     * `upToNumber`, newest first. A null page id: any page of the target (rows from before pages).
     */
    pageHistory: (
      targetId: string,
      viewport: Viewport,
      comparisonId: string,
      upToNumber: number,
      limit: number,
      page: { pageId: string | null; colorScheme: "light" | "dark" } = {
        pageId: null,
        colorScheme: "light",
      },
    ) =>
      db.all<PageHistoryRow>(
        `SELECT ${jsonText("s.extraction", "timing")} AS timing, ${jsonText("s.extraction", "volatility")} AS volatility
           FROM snapshots s JOIN runs r ON r.id = s.run_id
          WHERE s.target_id = $1 AND s.viewport = $2 AND r.comparison_id = $3 AND r.status = 'completed' AND r.number <= $4
            AND (CAST($6 AS TEXT) IS NULL OR s.page_id = $6) AND s.color_scheme = $7
          ORDER BY r.number DESC LIMIT $5`,
        [targetId, viewport, comparisonId, upToNumber, limit, page.pageId, page.colorScheme],
      ),
    // The columns are named one by one: the row's role and path give way to the page's when absent.
    changes: (runId: string, fromRunId: string, ownerId: string) =>
      db.all<ChangeRow>(
        `SELECT c.id, c.run_id, c.from_run_id, c.comparison_id, c.owner_id, c.target_id, c.viewport, c.kind, c.severity, c.summary,
                c.before, c.after, c.evidence, c.position, c.page_id, c.color_scheme,
                COALESCE(c.role, p.role) AS role, COALESCE(c.path, p.path) AS path
           FROM run_changes c LEFT JOIN pages p ON p.id = c.page_id
          WHERE c.run_id = $1 AND c.from_run_id = $2 AND c.owner_id = $3 ORDER BY c.target_id, c.position`,
        [runId, fromRunId, ownerId],
      ),
    /**
     * Per run of the comparison, how many stored changes of each kind and severity. Every run's
     * stored changes in one pass, found through runs (UNIQUE comparison_id, number) and
     * run_changes_run; a run stores its changes against one earlier run only.
     */
    changeCounts: (comparisonId: string, ownerId: string) =>
      db.all<{ run_id: string; kind: string; severity: string; n: number }>(
        `SELECT c.run_id, c.kind, c.severity, COUNT(*) AS n
           FROM runs r JOIN run_changes c ON c.run_id = r.id
          WHERE r.comparison_id = $1 AND r.owner_id = $2
          GROUP BY c.run_id, c.kind, c.severity`,
        [comparisonId, ownerId],
      ),
    /**
     * A run's changes against an earlier run, with its change count; one unit (a transaction of its
     * own, or the caller's). Only once per run: false, and nothing written, when the run's count is
     * already set (a second attempt of its detection). The count is claimed first, so of two
     * attempts at once the second waits on the run's row and then finds it set.
     */
    storeChanges: (runId: string, rows: ChangeRow[], count: number): Promise<boolean> =>
      db.tx(async () => {
        if ((await db.run("UPDATE runs SET change_count = $1 WHERE id = $2 AND change_count IS NULL", [count, runId])) === 0) return false;
        for (const c of rows)
          await db.run(
            `INSERT INTO run_changes (id, run_id, from_run_id, comparison_id, owner_id, target_id, viewport, kind, severity, summary, before, after,
               evidence, position, page_id, color_scheme, role, path)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
            [
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
              c.page_id ?? null,
              c.color_scheme ?? "light",
              c.role ?? null,
              c.path ?? null,
            ],
          );
        return true;
      }),
    /**
     * Completed runs finished before `finishedBefore` with a completed run before them, no change
     * count and no detection job of any state (`jobKey` + run id): their completing process stopped
     * before it queued one. Dead jobs count: the console retries those.
     */
    runsWithoutDetection: (finishedBefore: string, jobKey: string, limit: number) =>
      db.all<{ id: string; comparison_id: string; owner_id: string }>(
        `SELECT r.id, r.comparison_id, r.owner_id FROM runs r
          WHERE r.status = 'completed' AND r.change_count IS NULL AND r.finished_at < $1
            AND EXISTS (SELECT 1 FROM runs p WHERE p.comparison_id = r.comparison_id AND p.number < r.number AND p.status = 'completed')
            AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.dedupe_key = CAST($2 AS TEXT) || r.id)
          ORDER BY r.finished_at, r.id
          LIMIT $3`,
        [finishedBefore, jobKey, limit],
      ),
    /** A site's own pages (a `pages` change names the one at its path). */
    sitePages: (targetId: string) =>
      db.all<{ id: string; path: string; role: PageRole }>("SELECT id, path, role FROM pages WHERE target_id = $1 ORDER BY position", [
        targetId,
      ]),
    /** The page sets a run stored, by site. */
    pageSets: (runId: string, ownerId: string) =>
      db.all<PageSetRow>(
        "SELECT run_id, target_id, owner_id, nav, sitemap, listed_at FROM run_page_sets WHERE run_id = $1 AND owner_id = $2",
        [runId, ownerId],
      ),
    /** A run lists its sites' pages once; a second listing (never expected) keeps the first. */
    storePageSet: (row: PageSetRow) =>
      db.run(
        `INSERT INTO run_page_sets (run_id, target_id, owner_id, nav, sitemap, listed_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (run_id, target_id) DO NOTHING`,
        [row.run_id, row.target_id, row.owner_id, row.nav, row.sitemap, row.listed_at],
      ),
    /**
     * Changes found by runs that finished at or after `sinceIso`, newest run first; one owner's or
     * (null) everyone's (TrendHunter scans them all). Runs are few per comparison (HISTORY_KEEP), so
     * the window is found on runs and each run's changes through run_changes_run.
     */
    recentChanges: (sinceIso: string, ownerId: string | null, limit: number) =>
      db.all<RecentChangeRow>(
        `SELECT c.owner_id, c.comparison_id, cmp.name AS comparison_name, c.target_id, t.label, t.url, c.viewport, c.kind, c.severity,
                c.summary, c.before, c.after, r.finished_at AS at, c.run_id, c.from_run_id
           FROM runs r
           JOIN run_changes c ON c.run_id = r.id
           JOIN comparisons cmp ON cmp.id = c.comparison_id AND cmp.owner_id = c.owner_id
           JOIN targets t ON t.id = c.target_id AND t.owner_id = c.owner_id
          WHERE r.status = 'completed' AND r.finished_at >= $1 AND (CAST($2 AS TEXT) IS NULL OR r.owner_id = $2) AND c.owner_id = r.owner_id
          ORDER BY r.finished_at DESC, r.id, c.target_id, CASE c.viewport WHEN 'desktop' THEN 0 ELSE 1 END, c.position
          LIMIT $3`,
        [sinceIso, ownerId, limit],
      ),
  };
}

export type ChangesRepository = ReturnType<typeof changesRepository>;
