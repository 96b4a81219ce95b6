import type { Db } from "#server/db/connection";
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
 * then the two sites in the order they were added.
 */
const DIFF_ORDER = `${ROLE_ORDER("d.role")}, ${SCHEME_ORDER("d.color_scheme")}, CASE d.viewport WHEN 'desktop' THEN 0 ELSE 1 END,
  a.created_at, a.rowid, b.created_at, b.rowid`;
/** The run whose diffs and findings are the comparison's current results: the newest that wrote its outcome. */
const CURRENT_RUN = `(SELECT r.id FROM runs r WHERE r.comparison_id = ?1 AND r.status IN ('completed', 'failed') ORDER BY r.number DESC LIMIT 1)`;

/** Comparisons: list, create, delete, and the running state a run writes. */
function comparisonQueries(db: Db) {
  const q = {
    listComparisons: db.query<ComparisonRow, [string]>(
      `SELECT ${COMPARISON_COLUMNS} FROM comparisons c WHERE c.owner_id = ? ORDER BY c.created_at DESC, c.rowid DESC`,
    ),
    comparison: db.query<ComparisonRow, [string, string]>(
      `SELECT ${COMPARISON_COLUMNS} FROM comparisons c WHERE c.id = ? AND c.owner_id = ?`,
    ),
    countComparisons: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM comparisons WHERE owner_id = ?"),
    insertComparison: db.query<null, [string, string, string, string | null, string, string]>(
      "INSERT INTO comparisons (id, owner_id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    deleteComparison: db.query<null, [string, string]>("DELETE FROM comparisons WHERE id = ? AND owner_id = ?"),
    markRunning: db.query<null, [number, string, string, string, string, string]>(
      `UPDATE comparisons SET status = 'running', error = NULL, progress_done = 0, progress_total = ?, progress_stage = ?,
         started_at = ?, completed_at = NULL, updated_at = ? WHERE id = ? AND owner_id = ?`,
    ),
    setProgress: db.query<null, [number, number, string, string, string]>(
      "UPDATE comparisons SET progress_done = ?, progress_total = ?, progress_stage = ?, updated_at = ? WHERE id = ? AND status = 'running'",
    ),
    finish: db.query<null, [ComparisonStatus, string | null, string, string, string, string]>(
      `UPDATE comparisons SET status = ?, error = ?, progress_stage = ?, completed_at = ?, updated_at = ?
         WHERE id = ? AND status = 'running'`,
    ),
    running: db.query<ComparisonRow, []>(`SELECT ${COMPARISON_COLUMNS} FROM comparisons c WHERE c.status = 'running'`),
    setConsent: db.query<null, [ConsentPolicy, string, string, string]>(
      "UPDATE comparisons SET consent = ?, updated_at = ? WHERE id = ? AND owner_id = ?",
    ),
    setColorSchemes: db.query<null, [string, string, string, string]>(
      "UPDATE comparisons SET color_schemes = ?, updated_at = ? WHERE id = ? AND owner_id = ?",
    ),
  };
  return {
    listComparisons: (ownerId: string) => q.listComparisons.all(ownerId),
    findComparison: (id: string, ownerId: string) => q.comparison.get(id, ownerId),
    countComparisons: (ownerId: string) => q.countComparisons.get(ownerId)?.n ?? 0,
    insertComparison: (c: { id: string; ownerId: string; name: string; description: string | null; at: string }) =>
      q.insertComparison.run(c.id, c.ownerId, c.name, c.description, c.at, c.at),
    deleteComparison: (id: string, ownerId: string) => q.deleteComparison.run(id, ownerId).changes === 1,
    markRunning: (id: string, ownerId: string, total: number, stage: string, at: string) =>
      q.markRunning.run(total, stage, at, at, id, ownerId),
    /** Only a running comparison takes progress, so a late event from a cancelled run changes nothing. */
    setProgress: (id: string, done: number, total: number, stage: string, at: string) =>
      q.setProgress.run(done, total, stage, at, id).changes === 1,
    /** Ends a run; false when it was not running (deleted or already finished). */
    finish: (id: string, status: "completed" | "failed", error: string | null, stage: string, at: string) =>
      q.finish.run(status, error, stage, at, at, id).changes === 1,
    runningComparisons: () => q.running.all(),
    /** The next run's consent policy (a run under way keeps the one it started with). */
    setConsent: (id: string, ownerId: string, consent: ConsentPolicy, at: string) =>
      q.setConsent.run(consent, at, id, ownerId).changes === 1,
    /** The colour schemes the next run captures in. */
    setColorSchemes: (id: string, ownerId: string, schemes: readonly ColorScheme[], at: string) =>
      q.setColorSchemes.run(JSON.stringify(schemes), at, id, ownerId).changes === 1,
  };
}

/** Targets (the websites of a comparison) and their capture status. */
function targetQueries(db: Db) {
  const q = {
    targets: db.query<TargetRow, [string, string]>(
      "SELECT * FROM targets WHERE comparison_id = ? AND owner_id = ? ORDER BY created_at, rowid",
    ),
    target: db.query<TargetRow, [string, string]>("SELECT * FROM targets WHERE id = ? AND owner_id = ?"),
    targetByUrl: db.query<{ id: string }, [string, string]>("SELECT id FROM targets WHERE comparison_id = ? AND url = ?"),
    countTargets: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM targets WHERE comparison_id = ?"),
    insertTarget: db.query<null, [string, string, string, string, string, string]>(
      "INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    deleteTarget: db.query<null, [string, string]>("DELETE FROM targets WHERE id = ? AND owner_id = ?"),
    pagesOfComparison: db.query<PageRow, [string, string]>(
      `SELECT p.* FROM pages p JOIN targets t ON t.id = p.target_id
         WHERE p.comparison_id = ? AND p.owner_id = ? ORDER BY t.created_at, t.rowid, p.position, p.rowid`,
    ),
    allTargetsCapturing: db.query<null, [string]>("UPDATE targets SET status = 'capturing', error = NULL WHERE comparison_id = ?"),
    setTargetStatus: db.query<null, [TargetStatus, string | null, string]>(
      `UPDATE targets SET status = ?, error = ? WHERE id = ?
         AND EXISTS (SELECT 1 FROM comparisons c WHERE c.id = targets.comparison_id AND c.status = 'running')`,
    ),
    failCapturingTargets: db.query<null, [string, string]>(
      "UPDATE targets SET status = 'failed', error = ? WHERE comparison_id = ? AND status IN ('pending', 'capturing')",
    ),
  };
  return {
    listTargets: (comparisonId: string, ownerId: string) => q.targets.all(comparisonId, ownerId),
    findTarget: (id: string, ownerId: string) => q.target.get(id, ownerId),
    hasTargetUrl: (comparisonId: string, url: string) => q.targetByUrl.get(comparisonId, url) !== null,
    countTargets: (comparisonId: string) => q.countTargets.get(comparisonId)?.n ?? 0,
    /** A new target; the database gives it its home page (migration 0018's trigger). */
    insertTarget: (t: { id: string; comparisonId: string; ownerId: string; label: string; url: string; at: string }) =>
      q.insertTarget.run(t.id, t.comparisonId, t.ownerId, t.label, t.url, t.at),
    /** Every page of the comparison's sites: target by target, each site's home first, then by position. */
    listPagesOfComparison: (comparisonId: string, ownerId: string) => q.pagesOfComparison.all(comparisonId, ownerId),
    deleteTarget: (id: string, ownerId: string) => q.deleteTarget.run(id, ownerId).changes === 1,
    markTargetsCapturing: (comparisonId: string) => q.allTargetsCapturing.run(comparisonId),
    /** Only during a run, so a run that lost its comparison (deleted, recovered) cannot rewrite it. */
    setTargetStatus: (id: string, status: TargetStatus, error: string | null) => q.setTargetStatus.run(status, error, id),
    failUnfinishedTargets: (comparisonId: string, reason: string) => q.failCapturingTargets.run(reason, comparisonId),
  };
}

/** Snapshots (stored captured pages) and the timing samples of recent captures. */
function snapshotQueries(db: Db) {
  const q = {
    insertSnapshot: db.query<
      null,
      [
        string,
        string,
        string,
        string,
        Viewport,
        string,
        string,
        string,
        string,
        number,
        number,
        string,
        string | null,
        string | null,
        number | null,
        string | null,
        ColorScheme,
        string | null,
      ]
    >(
      `INSERT INTO snapshots (id, target_id, comparison_id, owner_id, viewport, captured_at, screenshot_path, title, colors, width, height, extraction,
           run_id, content_hash, file_bytes, page_id, color_scheme, step)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM comparisons WHERE id = ?3 AND status = 'running')`,
    ),
    setSnapshotExtraction: db.query<null, [string, string, string]>(
      `UPDATE snapshots SET extraction = ? WHERE id = ? AND owner_id = ?
         AND EXISTS (SELECT 1 FROM comparisons c WHERE c.id = snapshots.comparison_id AND c.status = 'running')`,
    ),
    // The latest capture of each page, in each colour scheme, at each viewport.
    latestSnapshots: db.query<SnapshotRow, [string, string]>(
      `SELECT s.*, p.role AS role, p.path AS path FROM snapshots s JOIN targets t ON t.id = s.target_id JOIN pages p ON p.id = s.page_id
         WHERE s.comparison_id = ? AND s.owner_id = ?
           AND s.rowid = (SELECT s2.rowid FROM snapshots s2
                           WHERE s2.page_id = s.page_id AND s2.viewport = s.viewport AND s2.color_scheme = s.color_scheme
                          ORDER BY s2.captured_at DESC, s2.rowid DESC LIMIT 1)
         ORDER BY t.created_at, t.rowid, p.position, p.rowid, ${SCHEME_ORDER("s.color_scheme")}, ${VIEWPORT_ORDER}`,
    ),
    snapshot: db.query<SnapshotRow, [string, string]>(
      "SELECT s.*, p.role AS role, p.path AS path FROM snapshots s LEFT JOIN pages p ON p.id = s.page_id WHERE s.id = ? AND s.owner_id = ?",
    ),
    snapshotPathsOfTarget: db.query<{ screenshot_path: string }, [string]>(
      "SELECT DISTINCT screenshot_path FROM snapshots WHERE target_id = ?",
    ),
    recentTimings: db.query<
      { at: string; samples: string | null; profile: string | null; browser: unknown },
      [string, string, Viewport, string, number]
    >(
      `SELECT s.captured_at AS at, json_extract(s.extraction, '$.timing.samples') AS samples,
              json_extract(s.extraction, '$.timing.profile') AS profile,
              json_extract(s.extraction, '$.timing.browser') AS browser
         FROM targets t JOIN snapshots s ON s.target_id = t.id JOIN pages p ON p.id = s.page_id AND p.position = 0
        WHERE t.owner_id = ? AND t.url = ? AND s.viewport = ? AND s.captured_at >= ?
        ORDER BY s.captured_at DESC LIMIT ?`,
    ),
  };
  return {
    /**
     * The timing samples of an owner's recent captures of one page (any of their comparisons),
     * newest capture first: each with the capture's time, its samples (JSON) and profile.
     */
    recentTimings: (ownerId: string, url: string, viewport: Viewport, sinceIso: string, limit: number) =>
      q.recentTimings.all(ownerId, url, viewport, sinceIso, limit),
    /** False when the comparison is no longer running: the capture belongs to a run that was ended. */
    insertSnapshot: (s: SnapshotRow) =>
      q.insertSnapshot.run(
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
      ).changes === 1,
    /** A running comparison's snapshot measured further (its timing loads); false once the run has ended. */
    setSnapshotExtraction: (id: string, ownerId: string, extraction: string) =>
      q.setSnapshotExtraction.run(extraction, id, ownerId).changes === 1,
    latestSnapshots: (comparisonId: string, ownerId: string) => q.latestSnapshots.all(comparisonId, ownerId),
    findSnapshot: (id: string, ownerId: string) => q.snapshot.get(id, ownerId),
    snapshotPathsOfTarget: (targetId: string) => q.snapshotPathsOfTarget.all(targetId).map((r) => r.screenshot_path),
  };
}

/** A run's scores and findings. */
function resultQueries(db: Db) {
  const q = {
    diffs: db.query<DiffRow, [string, string]>(
      `SELECT d.* FROM diffs d
         JOIN targets a ON a.id = d.target_a_id JOIN targets b ON b.id = d.target_b_id
         WHERE d.comparison_id = ?1 AND d.owner_id = ?2 AND d.run_id = ${CURRENT_RUN}
         ORDER BY ${DIFF_ORDER}`,
    ),
    insertDiff: db.query<
      null,
      [
        string,
        string,
        string,
        Viewport,
        string,
        string,
        number,
        number,
        number,
        number,
        string,
        string,
        string | null,
        PageRole,
        ColorScheme,
        string | null,
        string | null,
      ]
    >(
      `INSERT INTO diffs (id, comparison_id, owner_id, viewport, target_a_id, target_b_id, color_similarity, layout_similarity,
         content_similarity, overall_similarity, components, created_at, run_id, role, color_scheme, page_a_id, page_b_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    findings: db.query<FindingRow, [string, string]>(
      `SELECT f.*, p.role AS role, p.path AS path FROM findings f LEFT JOIN pages p ON p.id = f.page_id
         WHERE f.comparison_id = ?1 AND f.owner_id = ?2 AND f.run_id = ${CURRENT_RUN} ORDER BY f.position`,
    ),
    insertFinding: db.query<
      null,
      [
        string,
        string,
        string,
        string,
        Viewport,
        string,
        string,
        string,
        string,
        string,
        string,
        number,
        string,
        string | null,
        string | null,
        string | null,
        ColorScheme,
      ]
    >(
      `INSERT INTO findings (id, comparison_id, owner_id, target_id, viewport, grp, severity, title, evidence, fix, source, position, created_at, run_id, rule,
         page_id, color_scheme)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
  return {
    listDiffs: (comparisonId: string, ownerId: string) => q.diffs.all(comparisonId, ownerId),
    listFindings: (comparisonId: string, ownerId: string) => q.findings.all(comparisonId, ownerId),
    /** A run's results, kept beside earlier runs'; the newest settled run's are the comparison's current ones. */
    insertResults: (diffs: DiffRow[], findings: FindingRow[]) => {
      for (const d of diffs)
        q.insertDiff.run(
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
        );
      for (const f of findings)
        q.insertFinding.run(
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
        );
    },
  };
}

/** The run history's rows, and the files only they name (retention). */
function runQueries(db: Db) {
  const q = {
    // Run history: one row per run; its snapshots, diffs and findings carry its id.
    openRun: db.query<null, [string, string, string, string, string]>(
      `INSERT INTO runs (id, comparison_id, owner_id, number, trigger, status, started_at)
         SELECT ?1, ?2, ?3, COALESCE((SELECT MAX(number) FROM runs WHERE comparison_id = ?2), 0) + 1, ?4, 'running', ?5
         WHERE NOT EXISTS (SELECT 1 FROM runs WHERE id = ?1)`,
    ),
    finishRun: db.query<null, [RunStatus, string | null, string, string]>(
      "UPDATE runs SET status = ?, error = ?, finished_at = ? WHERE id = ? AND status = 'running'",
    ),
    interruptRuns: db.query<null, [string, string, string]>(
      "UPDATE runs SET status = 'interrupted', error = ?, finished_at = ? WHERE comparison_id = ? AND status = 'running'",
    ),
    runsBeyond: db.query<{ id: string }, [string, number]>(
      `SELECT id FROM runs WHERE comparison_id = ? AND status != 'running' ORDER BY number DESC LIMIT -1 OFFSET ?`,
    ),
    deleteRun: db.query<null, [string]>("DELETE FROM runs WHERE id = ?"),
    snapshotPathsOfRun: db.query<{ screenshot_path: string }, [string]>("SELECT DISTINCT screenshot_path FROM snapshots WHERE run_id = ?"),
    pathInUse: db.query<{ n: number }, [string]>("SELECT 1 AS n FROM snapshots WHERE screenshot_path = ? LIMIT 1"),
  };
  return {
    /** The run row for a run this process starts; numbered after the comparison's last. A no-op when it exists. */
    openRun: (r: { id: string; comparisonId: string; ownerId: string; trigger: "manual" | "schedule"; at: string }) =>
      q.openRun.run(r.id, r.comparisonId, r.ownerId, r.trigger, r.at),
    finishRun: (id: string, status: Exclude<RunStatus, "running">, error: string | null, at: string) =>
      q.finishRun.run(status, error, at, id).changes === 1,
    /** Shutdown and boot recovery: whatever run of the comparison was still going ended with the restart. */
    interruptRuns: (comparisonId: string, reason: string, at: string) => q.interruptRuns.run(reason, at, comparisonId),
    /** Ended runs of a comparison older than the newest `keep`. */
    runsBeyond: (comparisonId: string, keep: number) => q.runsBeyond.all(comparisonId, keep).map((r) => r.id),
    deleteRun: (id: string) => q.deleteRun.run(id),
    snapshotPathsOfRun: (runId: string) => q.snapshotPathsOfRun.all(runId).map((r) => r.screenshot_path),
    /** Whether any snapshot still names this file (identical screenshots share one). */
    pathInUse: (path: string) => q.pathInUse.get(path) !== null,
  };
}

/** Every query of the comparisons module, by table. */
export function comparisonsRepository(db: Db) {
  return { ...comparisonQueries(db), ...targetQueries(db), ...snapshotQueries(db), ...resultQueries(db), ...runQueries(db) };
}

export type ComparisonsRepository = ReturnType<typeof comparisonsRepository>;
