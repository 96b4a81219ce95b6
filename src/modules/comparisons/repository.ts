import type { SqlDb } from "#server/db/sql";
import type { ColorScheme, ConsentPolicy, PageRole, Viewport } from "#server/modules/capture/model";
import type { PageRow } from "#server/modules/pages/repository";
import type { ComparisonStatus, TargetStatus } from "./model";

export type { PageRow };

export interface ComparisonRow {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  status: ComparisonStatus;
  error: string | null;
  progress_done: number | null;
  progress_total: number | null;
  progress_stage: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** What the comparison's captures do about a consent banner. */
  consent: ConsentPolicy;
  /** The colour schemes its runs capture in (JSON array of ColorScheme). */
  color_schemes: string;
  target_count: number;
}

export interface TargetRow {
  id: string;
  comparison_id: string;
  owner_id: string;
  label: string;
  url: string;
  status: TargetStatus;
  error: string | null;
  created_at: string;
}

export interface SnapshotRow {
  id: string;
  target_id: string;
  comparison_id: string;
  owner_id: string;
  viewport: Viewport;
  captured_at: string;
  screenshot_path: string;
  title: string;
  colors: string;
  width: number;
  height: number;
  extraction: string;
  run_id: string | null;
  /** sha256 of the PNG; the file is named by it (NULL for a snapshot stored without one). */
  content_hash: string | null;
  file_bytes: number | null;
  /** The page captured (NULL only for a row written by a build from before pages). */
  page_id: string | null;
  color_scheme: ColorScheme;
  /** Where a page's steps stopped (JSON StepFailure); NULL when they ran through or there were none. */
  step: string | null;
  /** The page's role and path, joined from pages when read (absent on a row being written). */
  role?: PageRole | null;
  path?: string | null;
}

export interface DiffRow {
  id: string;
  comparison_id: string;
  owner_id: string;
  viewport: Viewport;
  target_a_id: string;
  target_b_id: string;
  color_similarity: number;
  layout_similarity: number;
  content_similarity: number;
  overall_similarity: number;
  components: string;
  created_at: string;
  run_id: string | null;
  /** The role of the two pages scored, and the colour scheme they were captured in. */
  role: PageRole;
  color_scheme: ColorScheme;
  page_a_id: string | null;
  page_b_id: string | null;
}

export interface FindingRow {
  id: string;
  comparison_id: string;
  owner_id: string;
  target_id: string;
  viewport: Viewport;
  grp: string;
  severity: string;
  title: string;
  evidence: string;
  fix: string;
  source: string;
  position: number;
  created_at: string;
  run_id: string | null;
  /** The rule that found it (an axe-core rule id for accessibility); null for AI suggestions and older rows. */
  rule: string | null;
  page_id: string | null;
  color_scheme: ColorScheme;
  /** Joined from pages when read. */
  role?: PageRole | null;
  path?: string | null;
}

export type RunStatus = "running" | "completed" | "failed" | "interrupted";
export interface RunRow {
  id: string;
  comparison_id: string;
  owner_id: string;
  number: number;
  trigger: "manual" | "schedule";
  status: RunStatus;
  started_at: string;
  finished_at: string | null;
  change_count: number | null;
  error: string | null;
}

const COMPARISON_COLUMNS = `c.*, (SELECT COUNT(*) FROM targets t WHERE t.comparison_id = c.id) AS target_count`;
const VIEWPORT_ORDER = `CASE s.viewport WHEN 'desktop' THEN 0 ELSE 1 END`;
/** Roles in PAGE_ROLES order (home first), for the order results are listed in. */
const ROLE_ORDER = (col: string) =>
  `CASE ${col} WHEN 'home' THEN 0 WHEN 'pricing' THEN 1 WHEN 'features' THEN 2 WHEN 'signup' THEN 3 WHEN 'blog' THEN 4 WHEN 'docs' THEN 5 ELSE 6 END`;
const SCHEME_ORDER = (col: string) => `CASE ${col} WHEN 'light' THEN 0 ELSE 1 END`;
/**
 * Diffs in the order results list them: role (home first), colour scheme (light first), viewport,
 * then the two sites in the order they were added (ids are UUIDv7: creation order breaks a tie).
 */
const DIFF_ORDER = `${ROLE_ORDER("d.role")}, ${SCHEME_ORDER("d.color_scheme")}, CASE d.viewport WHEN 'desktop' THEN 0 ELSE 1 END,
  a.created_at, a.id, b.created_at, b.id`;
/** The run whose diffs and findings are the comparison's current results: the newest that wrote its outcome. */
const CURRENT_RUN = `(SELECT r.id FROM runs r WHERE r.comparison_id = $1 AND r.status IN ('completed', 'failed') ORDER BY r.number DESC LIMIT 1)`;

/** Comparisons: list, create, delete, and the running state a run writes. */
function comparisonQueries(db: SqlDb) {
  return {
    listComparisons: (ownerId: string) =>
      db.all<ComparisonRow>(`SELECT ${COMPARISON_COLUMNS} FROM comparisons c WHERE c.owner_id = $1 ORDER BY c.created_at DESC, c.id DESC`, [
        ownerId,
      ]),
    findComparison: (id: string, ownerId: string) =>
      db.one<ComparisonRow>(`SELECT ${COMPARISON_COLUMNS} FROM comparisons c WHERE c.id = $1 AND c.owner_id = $2`, [id, ownerId]),
    countComparisons: async (ownerId: string) =>
      (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM comparisons WHERE owner_id = $1", [ownerId]))?.n ?? 0,
    insertComparison: (c: { id: string; ownerId: string; name: string; description: string | null; at: string }) =>
      db.run("INSERT INTO comparisons (id, owner_id, name, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)", [
        c.id,
        c.ownerId,
        c.name,
        c.description,
        c.at,
      ]),
    deleteComparison: async (id: string, ownerId: string) =>
      (await db.run("DELETE FROM comparisons WHERE id = $1 AND owner_id = $2", [id, ownerId])) === 1,
    markRunning: (id: string, ownerId: string, total: number, stage: string, at: string) =>
      db.run(
        `UPDATE comparisons SET status = 'running', error = NULL, progress_done = 0, progress_total = $1, progress_stage = $2,
           started_at = $3, completed_at = NULL, updated_at = $3 WHERE id = $4 AND owner_id = $5`,
        [total, stage, at, id, ownerId],
      ),
    /** Only a running comparison takes progress, so a late event from a cancelled run changes nothing. */
    setProgress: async (id: string, done: number, total: number, stage: string, at: string) =>
      (await db.run(
        "UPDATE comparisons SET progress_done = $1, progress_total = $2, progress_stage = $3, updated_at = $4 WHERE id = $5 AND status = 'running'",
        [done, total, stage, at, id],
      )) === 1,
    /** Ends a run; false when it was not running (deleted or already finished). */
    finish: async (id: string, status: "completed" | "failed", error: string | null, stage: string, at: string) =>
      (await db.run(
        `UPDATE comparisons SET status = $1, error = $2, progress_stage = $3, completed_at = $4, updated_at = $4
           WHERE id = $5 AND status = 'running'`,
        [status, error, stage, at, id],
      )) === 1,
    runningComparisons: () => db.all<ComparisonRow>(`SELECT ${COMPARISON_COLUMNS} FROM comparisons c WHERE c.status = 'running'`),
    /** The next run's consent policy (a run under way keeps the one it started with). */
    setConsent: async (id: string, ownerId: string, consent: ConsentPolicy, at: string) =>
      (await db.run("UPDATE comparisons SET consent = $1, updated_at = $2 WHERE id = $3 AND owner_id = $4", [consent, at, id, ownerId])) ===
      1,
    /** The colour schemes the next run captures in. */
    setColorSchemes: async (id: string, ownerId: string, schemes: readonly ColorScheme[], at: string) =>
      (await db.run("UPDATE comparisons SET color_schemes = $1, updated_at = $2 WHERE id = $3 AND owner_id = $4", [
        JSON.stringify(schemes),
        at,
        id,
        ownerId,
      ])) === 1,
  };
}

/** Targets (the websites of a comparison) and their capture status. */
function targetQueries(db: SqlDb) {
  return {
    listTargets: (comparisonId: string, ownerId: string) =>
      db.all<TargetRow>("SELECT * FROM targets WHERE comparison_id = $1 AND owner_id = $2 ORDER BY created_at, id", [
        comparisonId,
        ownerId,
      ]),
    findTarget: (id: string, ownerId: string) => db.one<TargetRow>("SELECT * FROM targets WHERE id = $1 AND owner_id = $2", [id, ownerId]),
    hasTargetUrl: async (comparisonId: string, url: string) =>
      (await db.one("SELECT id FROM targets WHERE comparison_id = $1 AND url = $2", [comparisonId, url])) !== null,
    countTargets: async (comparisonId: string) =>
      (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM targets WHERE comparison_id = $1", [comparisonId]))?.n ?? 0,
    /** A new target; the database gives it its home page (migration 0018's trigger). */
    insertTarget: (t: { id: string; comparisonId: string; ownerId: string; label: string; url: string; at: string }) =>
      db.run("INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES ($1, $2, $3, $4, $5, $6)", [
        t.id,
        t.comparisonId,
        t.ownerId,
        t.label,
        t.url,
        t.at,
      ]),
    /** Every page of the comparison's sites: target by target, each site's home first, then by position. */
    listPagesOfComparison: (comparisonId: string, ownerId: string) =>
      db.all<PageRow>(
        `SELECT p.* FROM pages p JOIN targets t ON t.id = p.target_id
           WHERE p.comparison_id = $1 AND p.owner_id = $2 ORDER BY t.created_at, t.id, p.position, p.id`,
        [comparisonId, ownerId],
      ),
    deleteTarget: async (id: string, ownerId: string) =>
      (await db.run("DELETE FROM targets WHERE id = $1 AND owner_id = $2", [id, ownerId])) === 1,
    markTargetsCapturing: (comparisonId: string) =>
      db.run("UPDATE targets SET status = 'capturing', error = NULL WHERE comparison_id = $1", [comparisonId]),
    /** Only during a run, so a run that lost its comparison (deleted, recovered) cannot rewrite it. */
    setTargetStatus: (id: string, status: TargetStatus, error: string | null) =>
      db.run(
        `UPDATE targets SET status = $1, error = $2 WHERE id = $3
           AND EXISTS (SELECT 1 FROM comparisons c WHERE c.id = targets.comparison_id AND c.status = 'running')`,
        [status, error, id],
      ),
    failUnfinishedTargets: (comparisonId: string, reason: string) =>
      db.run("UPDATE targets SET status = 'failed', error = $1 WHERE comparison_id = $2 AND status IN ('pending', 'capturing')", [
        reason,
        comparisonId,
      ]),
  };
}

/** Snapshots (stored captured pages) and the timing samples of recent captures. */
function snapshotQueries(db: SqlDb) {
  const timing = (key: string) => db.dialect.jsonText("s.extraction", "timing", key);
  return {
    /**
     * The timing samples of an owner's recent captures of one page (any of their comparisons),
     * newest capture first: each with the capture's time, its samples (JSON) and profile.
     */
    recentTimings: (ownerId: string, url: string, viewport: Viewport, sinceIso: string, limit: number) =>
      db.all<{ at: string; samples: string | null; profile: string | null; browser: unknown }>(
        `SELECT s.captured_at AS at, ${timing("samples")} AS samples, ${timing("profile")} AS profile, ${timing("browser")} AS browser
           FROM targets t JOIN snapshots s ON s.target_id = t.id JOIN pages p ON p.id = s.page_id AND p.position = 0
          WHERE t.owner_id = $1 AND t.url = $2 AND s.viewport = $3 AND s.captured_at >= $4
          ORDER BY s.captured_at DESC, s.id DESC LIMIT $5`,
        [ownerId, url, viewport, sinceIso, limit],
      ),
    /** False when the comparison is no longer running: the capture belongs to a run that was ended. */
    insertSnapshot: async (s: SnapshotRow) =>
      (await db.run(
        `INSERT INTO snapshots (id, target_id, comparison_id, owner_id, viewport, captured_at, screenshot_path, title, colors, width, height, extraction,
             run_id, content_hash, file_bytes, page_id, color_scheme, step)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18
            WHERE EXISTS (SELECT 1 FROM comparisons WHERE id = $3 AND status = 'running')`,
        [
          s.id,
          s.target_id,
          s.comparison_id,
          s.owner_id,
          s.viewport,
          s.captured_at,
          s.screenshot_path,
          s.title,
          s.colors,
          s.width,
          s.height,
          s.extraction,
          s.run_id,
          s.content_hash,
          s.file_bytes,
          s.page_id,
          s.color_scheme,
          s.step,
        ],
      )) === 1,
    /** A running comparison's snapshot measured further (its timing loads); false once the run has ended. */
    setSnapshotExtraction: async (id: string, ownerId: string, extraction: string) =>
      (await db.run(
        `UPDATE snapshots SET extraction = $1 WHERE id = $2 AND owner_id = $3
           AND EXISTS (SELECT 1 FROM comparisons c WHERE c.id = snapshots.comparison_id AND c.status = 'running')`,
        [extraction, id, ownerId],
      )) === 1,
    // The latest capture of each page, in each colour scheme, at each viewport (ids are UUIDv7: the newer breaks a tie).
    latestSnapshots: (comparisonId: string, ownerId: string) =>
      db.all<SnapshotRow>(
        `SELECT s.*, p.role AS role, p.path AS path FROM snapshots s JOIN targets t ON t.id = s.target_id JOIN pages p ON p.id = s.page_id
           WHERE s.comparison_id = $1 AND s.owner_id = $2
             AND s.id = (SELECT s2.id FROM snapshots s2
                          WHERE s2.page_id = s.page_id AND s2.viewport = s.viewport AND s2.color_scheme = s.color_scheme
                          ORDER BY s2.captured_at DESC, s2.id DESC LIMIT 1)
           ORDER BY t.created_at, t.id, p.position, p.id, ${SCHEME_ORDER("s.color_scheme")}, ${VIEWPORT_ORDER}`,
        [comparisonId, ownerId],
      ),
    findSnapshot: (id: string, ownerId: string) =>
      db.one<SnapshotRow>(
        "SELECT s.*, p.role AS role, p.path AS path FROM snapshots s LEFT JOIN pages p ON p.id = s.page_id WHERE s.id = $1 AND s.owner_id = $2",
        [id, ownerId],
      ),
    snapshotPathsOfTarget: async (targetId: string) =>
      (await db.all<{ screenshot_path: string }>("SELECT DISTINCT screenshot_path FROM snapshots WHERE target_id = $1", [targetId])).map(
        (r) => r.screenshot_path,
      ),
  };
}

/** A run's scores and findings. */
function resultQueries(db: SqlDb) {
  return {
    listDiffs: (comparisonId: string, ownerId: string) =>
      db.all<DiffRow>(
        `SELECT d.* FROM diffs d
           JOIN targets a ON a.id = d.target_a_id JOIN targets b ON b.id = d.target_b_id
           WHERE d.comparison_id = $1 AND d.owner_id = $2 AND d.run_id = ${CURRENT_RUN}
           ORDER BY ${DIFF_ORDER}`,
        [comparisonId, ownerId],
      ),
    listFindings: (comparisonId: string, ownerId: string) =>
      db.all<FindingRow>(
        `SELECT f.*, p.role AS role, p.path AS path FROM findings f LEFT JOIN pages p ON p.id = f.page_id
           WHERE f.comparison_id = $1 AND f.owner_id = $2 AND f.run_id = ${CURRENT_RUN} ORDER BY f.position`,
        [comparisonId, ownerId],
      ),
    /** A run's results, kept beside earlier runs'; the newest settled run's are the comparison's current ones. */
    insertResults: async (diffs: DiffRow[], findings: FindingRow[]) => {
      for (const d of diffs)
        await db.run(
          `INSERT INTO diffs (id, comparison_id, owner_id, viewport, target_a_id, target_b_id, color_similarity, layout_similarity,
             content_similarity, overall_similarity, components, created_at, run_id, role, color_scheme, page_a_id, page_b_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
          [
            d.id,
            d.comparison_id,
            d.owner_id,
            d.viewport,
            d.target_a_id,
            d.target_b_id,
            d.color_similarity,
            d.layout_similarity,
            d.content_similarity,
            d.overall_similarity,
            d.components,
            d.created_at,
            d.run_id,
            d.role,
            d.color_scheme,
            d.page_a_id,
            d.page_b_id,
          ],
        );
      for (const f of findings)
        await db.run(
          `INSERT INTO findings (id, comparison_id, owner_id, target_id, viewport, grp, severity, title, evidence, fix, source, position, created_at, run_id, rule,
             page_id, color_scheme)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
          [
            f.id,
            f.comparison_id,
            f.owner_id,
            f.target_id,
            f.viewport,
            f.grp,
            f.severity,
            f.title,
            f.evidence,
            f.fix,
            f.source,
            f.position,
            f.created_at,
            f.run_id,
            f.rule ?? null,
            f.page_id,
            f.color_scheme,
          ],
        );
    },
  };
}

/** The run history's rows, and the files only they name (retention). */
function runQueries(db: SqlDb) {
  return {
    /** The run row for a run this process starts; numbered after the comparison's last. A no-op when it exists. */
    openRun: (r: { id: string; comparisonId: string; ownerId: string; trigger: "manual" | "schedule"; at: string; driver?: string }) =>
      // Run history: one row per run; its snapshots, diffs and findings carry its id.
      db.run(
        `INSERT INTO runs (id, comparison_id, owner_id, number, trigger, status, started_at, driver)
           SELECT $1, $2, $3, COALESCE((SELECT MAX(number) FROM runs WHERE comparison_id = $2), 0) + 1, $4, 'running', $5, $6
           WHERE NOT EXISTS (SELECT 1 FROM runs WHERE id = $1)`,
        [r.id, r.comparisonId, r.ownerId, r.trigger, r.at, r.driver ?? null],
      ),
    /** The instance driving each comparison's run under way, by comparison (null: not recorded). */
    runDrivers: async () =>
      new Map(
        (
          await db.all<{ comparison_id: string; driver: string | null }>("SELECT comparison_id, driver FROM runs WHERE status = 'running'")
        ).map((r) => [r.comparison_id, r.driver]),
      ),
    finishRun: async (id: string, status: Exclude<RunStatus, "running">, error: string | null, at: string) =>
      (await db.run("UPDATE runs SET status = $1, error = $2, finished_at = $3 WHERE id = $4 AND status = 'running'", [
        status,
        error,
        at,
        id,
      ])) === 1,
    /** Shutdown and boot recovery: whatever run of the comparison was still going ended with the restart. */
    interruptRuns: (comparisonId: string, reason: string, at: string) =>
      db.run("UPDATE runs SET status = 'interrupted', error = $1, finished_at = $2 WHERE comparison_id = $3 AND status = 'running'", [
        reason,
        at,
        comparisonId,
      ]),
    /** Ended runs of a comparison older than the newest `keep`. */
    runsBeyond: async (comparisonId: string, keep: number) =>
      (
        await db.all<{ id: string }>(
          `SELECT id FROM runs WHERE comparison_id = $1 AND status != 'running' ORDER BY number DESC ${db.dialect.noLimit} OFFSET $2`,
          [comparisonId, keep],
        )
      ).map((r) => r.id),
    deleteRun: (id: string) => db.run("DELETE FROM runs WHERE id = $1", [id]),
    snapshotPathsOfRun: async (runId: string) =>
      (await db.all<{ screenshot_path: string }>("SELECT DISTINCT screenshot_path FROM snapshots WHERE run_id = $1", [runId])).map(
        (r) => r.screenshot_path,
      ),
    /** Whether any snapshot still names this file (identical screenshots share one). */
    pathInUse: async (path: string) => (await db.one("SELECT 1 AS n FROM snapshots WHERE screenshot_path = $1 LIMIT 1", [path])) !== null,
  };
}

/** Every query of the comparisons module, by table. */
export function comparisonsRepository(db: SqlDb) {
  return { ...comparisonQueries(db), ...targetQueries(db), ...snapshotQueries(db), ...resultQueries(db), ...runQueries(db) };
}

export type ComparisonsRepository = ReturnType<typeof comparisonsRepository>;
