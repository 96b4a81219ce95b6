import { designFromParts } from "#server/modules/analysis/public";
import { existsSync } from "node:fs";
import type { SqlDb } from "#server/db/sql";
import { StampedCache, changeStamp } from "#server/db/change-stamp";
import { HttpError, conflict, notFound, unavailable } from "#server/http/errors";
import { newId, nowIso } from "#server/lib/ids";
import type { Actor } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import { COLOR_SCHEMES, type ColorScheme, type Extraction, type Finding, type StepFailure } from "#server/modules/capture/model";
import { checkTargetUrl } from "#server/modules/capture/public";
import type { BlobBody } from "#server/modules/storage";
import { toPageDto } from "#server/modules/pages/public";
import { renderHtmlReport, renderJsonReport, reportFilename } from "./export";
import { screenshotFiles, type ScreenshotFiles } from "./files";
import type {
  AddTargetInput,
  ComparisonDto,
  ComparisonReport,
  CreateComparisonInput,
  DiffDto,
  ExportFormat,
  FindingDto,
  ScheduleView,
  SnapshotDto,
  TargetDto,
  UpdateComparisonInput,
} from "./model";
import { type ComparisonRow, type DiffRow, type FindingRow, type SnapshotRow, type TargetRow, comparisonsRepository } from "./repository";
import { QUEUED_STAGE, activeRuns, pagesInRun, type RecoverOptions, type RunDeps, type RunTools, type RunTrigger } from "./active-runs";

export const LIMITS = {
  targetsPerComparison: 10,
  comparisonsPerUser: 200,
  /** Each run holds capture slots for minutes; this keeps one account from queueing the whole pool. */
  runningPerUser: 3,
};

const NOT_FOUND = "Comparison not found";
/** An object in a shared store no row names is a leftover once it is this old (a capture's row follows its upload within seconds). */
const SHARED_STORE_GRACE_MS = 60 * 60_000;
/** The actor of what no person did (a scheduled run): the audit entry's trigger says what did. */
const NO_ONE: Actor = { id: null, email: null };
/** Owners whose comparison list is cached between writes. */
const LIST_CACHE_OWNERS = 500;

export interface ReportFile {
  body: string;
  contentType: string;
  filename: string;
}

export const toComparisonDto = (r: ComparisonRow): ComparisonDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
  targetCount: r.target_count,
  progress: r.progress_total === null ? null : { done: r.progress_done ?? 0, total: r.progress_total, stage: r.progress_stage ?? "" },
  consent: r.consent,
  colorSchemes: colorSchemesOf(r.color_schemes),
});

/** A comparison's colour schemes as stored (JSON); anything unreadable is light only. */
export function colorSchemesOf(raw: string | null | undefined): ColorScheme[] {
  try {
    const list = JSON.parse(raw ?? "null") as unknown;
    const known = Array.isArray(list) ? COLOR_SCHEMES.filter((c) => list.includes(c)) : [];
    return known.length > 0 ? known : ["light"];
  } catch {
    return ["light"];
  }
}

export const toTargetDto = (r: TargetRow): TargetDto => ({
  id: r.id,
  comparisonId: r.comparison_id,
  label: r.label,
  url: r.url,
  status: r.status,
  error: r.error,
  createdAt: r.created_at,
});

export const toSnapshotDto = (r: SnapshotRow): SnapshotDto => {
  const extraction = JSON.parse(r.extraction) as Extraction | null;
  return {
    id: r.id,
    targetId: r.target_id,
    pageId: r.page_id ?? null,
    role: r.role ?? "home",
    path: r.path ?? null,
    colorScheme: r.color_scheme ?? "light",
    step: r.step ? (JSON.parse(r.step) as StepFailure) : null,
    capturedAt: r.captured_at,
    viewport: r.viewport,
    screenshotUrl: `/api/snapshots/${r.id}/screenshot`,
    title: r.title,
    colors: JSON.parse(r.colors) as string[],
    width: r.width,
    height: r.height,
    consent: extraction?.consent ?? null,
    extraction,
  };
};

export const toDiffDto = (r: DiffRow): DiffDto => ({
  id: r.id,
  comparisonId: r.comparison_id,
  viewport: r.viewport,
  role: r.role ?? "home",
  colorScheme: r.color_scheme ?? "light",
  targetAId: r.target_a_id,
  targetBId: r.target_b_id,
  pageAId: r.page_a_id ?? null,
  pageBId: r.page_b_id ?? null,
  createdAt: r.created_at,
  colorSimilarity: r.color_similarity,
  layoutSimilarity: r.layout_similarity,
  contentSimilarity: r.content_similarity,
  overallSimilarity: r.overall_similarity,
  ...withDesign(r, JSON.parse(r.components) as Record<string, number>),
});

/** designSimilarity travels in the components (no column); older rows get it from their parts. */
const withDesign = (r: DiffRow, components: Record<string, number>) => ({
  designSimilarity: components.design ?? designFromParts(r.color_similarity, r.layout_similarity, components.typography ?? null),
  components,
});

export const toFindingDto = (r: FindingRow): FindingDto => ({
  id: r.id,
  group: r.grp as Finding["group"],
  severity: r.severity as Finding["severity"],
  targetId: r.target_id,
  viewport: r.viewport,
  title: r.title,
  evidence: JSON.parse(r.evidence) as Record<string, string>,
  fix: r.fix,
  source: r.source as Finding["source"],
  ...(r.rule ? { rule: r.rule } : {}),
  pageId: r.page_id ?? null,
  role: r.role ?? "home",
  colorScheme: r.color_scheme ?? "light",
});

/** A URL check that throws HttpError 400 for anything the server must not fetch. */
export type UrlCheck = (raw: string, opts: { allowPrivate: boolean; log?: (msg: string) => void }) => unknown;

export interface ComparisonsDeps {
  db: SqlDb;
  dataDir: string;
  /** Where screenshots are stored (shared with the services that read them); files under dataDir when absent. */
  files?: ScreenshotFiles;
  allowPrivateTargets: boolean;
  /** What runs call out to; without `capture` the server cannot start one. */
  tools?: RunTools;
  checkUrl?: UrlCheck;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
  /** Ended runs kept per comparison (HISTORY_KEEP). */
  historyKeep?: number;
  /** This process, recorded on each run it starts, so that others can tell when it stopped (RunDeps). */
  driver?: string;
  /** Every page of a run is captured (the watch lists its sites' pages meanwhile). */
  onCaptured?: RunDeps["onCaptured"];
  /** After a run's completed results are stored (change detection). */
  onCompleted?: RunDeps["onCompleted"];
  /** A run is over, whatever its outcome: its owner has room for another (the watch's deferred slots). */
  onClosed?: RunDeps["onClosed"];
  /** The values of a site's secrets its pages' steps name (the secrets module's), for their captures. */
  secretsOf?: RunDeps["secretsOf"];
  /** The comparison's watch schedule, for GET /comparisons/:id (the watch module owns it). */
  scheduleOf?: (ownerId: string, comparisonId: string) => ScheduleView | null | Promise<ScheduleView | null>;
  /** Runs started and comparisons deleted go into their workspace's audit log. */
  audit?: Pick<AuditService, "recordIn">;
}

export function comparisonsService(deps: ComparisonsDeps) {
  const repo = comparisonsRepository(deps.db);
  const files = deps.files ?? screenshotFiles(deps.dataDir);
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err));
  const checkUrl: UrlCheck = deps.checkUrl ?? checkTargetUrl;
  const runs = activeRuns({
    db: deps.db,
    repo,
    files,
    tools: deps.tools ?? {},
    now,
    log,
    historyKeep: deps.historyKeep,
    driver: deps.driver,
    onCaptured: deps.onCaptured,
    onCompleted: deps.onCompleted,
    onClosed: deps.onClosed,
    secretsOf: deps.secretsOf,
  });

  const owned = async (ownerId: string, id: string) => {
    const c = await repo.findComparison(id, ownerId);
    if (!c) throw notFound(NOT_FOUND);
    return c;
  };
  const scheduleOf = async (ownerId: string, id: string) => (await deps.scheduleOf?.(ownerId, id)) ?? null;

  /** The server-side URL check decides what the URL is; its own 400 (e.g. a private address) passes through. */
  async function vetUrl(raw: string): Promise<string> {
    const checked = await checkUrl(raw, { allowPrivate: deps.allowPrivateTargets, log });
    if (checked instanceof URL) return checked.href;
    if (typeof checked === "string") return checked;
    if (checked && typeof checked === "object" && "url" in checked && typeof checked.url === "string") return checked.url;
    return new URL(raw).href;
  }

  // The list is what dashboards poll, and its rows cost ~3 µs each to read: each owner's list is
  // kept until the next write anywhere in the database (a load in flight is shared). The same
  // array goes to every request (cachedJson serialises it once), so it is typed readonly; not
  // frozen, as frozen objects serialise 2-4x slower in JSC.
  const lists = new StampedCache<Promise<readonly Readonly<ComparisonDto>[]>>(changeStamp(deps.db), LIST_CACHE_OWNERS);
  const list = (ownerId: string) => lists.load(ownerId, async () => (await repo.listComparisons(ownerId)).map(toComparisonDto));

  async function snapshots(ownerId: string, comparisonId: string): Promise<SnapshotDto[]> {
    await owned(ownerId, comparisonId);
    return (await repo.latestSnapshots(comparisonId, ownerId)).map(toSnapshotDto);
  }

  return {
    list,

    async create(ownerId: string, input: CreateComparisonInput): Promise<ComparisonDto> {
      const id = newId();
      await deps.db.tx(async () => {
        if ((await repo.countComparisons(ownerId)) >= LIMITS.comparisonsPerUser)
          throw conflict(`You can keep up to ${LIMITS.comparisonsPerUser} comparisons. Delete one to create another.`);
        await repo.insertComparison({ id, ownerId, name: input.name, description: input.description, at: nowIso(now()) });
      });
      return toComparisonDto(await owned(ownerId, id));
    },

    get: async (ownerId: string, id: string): Promise<ComparisonDto & { schedule: ScheduleView | null }> => ({
      ...toComparisonDto(await owned(ownerId, id)),
      schedule: await scheduleOf(ownerId, id),
    }),

    /** Changes the comparison's capture settings; a run under way keeps the ones it started with. */
    async update(ownerId: string, id: string, input: UpdateComparisonInput): Promise<ComparisonDto & { schedule: ScheduleView | null }> {
      await deps.db.tx(async () => {
        await owned(ownerId, id);
        if (input.consent) await repo.setConsent(id, ownerId, input.consent, nowIso(now()));
        if (input.colorSchemes) await repo.setColorSchemes(id, ownerId, input.colorSchemes, nowIso(now()));
      });
      return { ...toComparisonDto(await owned(ownerId, id)), schedule: await scheduleOf(ownerId, id) };
    },

    /** Deleting a running comparison cancels its run; its screenshots go with it. `actor`: who deleted it, for the audit log. */
    async remove(ownerId: string, id: string, actor: Actor = NO_ONE): Promise<void> {
      const { name } = await owned(ownerId, id);
      await runs.cancel(id);
      if (!(await repo.deleteComparison(id, ownerId))) throw notFound(NOT_FOUND);
      await deps.audit?.recordIn(ownerId, actor, "comparison.deleted", id, { name });
      await files.removeComparison(ownerId, id).catch((e) => log("could not remove comparison screenshots", e));
    },

    async listTargets(ownerId: string, comparisonId: string): Promise<TargetDto[]> {
      await owned(ownerId, comparisonId);
      return (await repo.listTargets(comparisonId, ownerId)).map(toTargetDto);
    },

    async addTarget(ownerId: string, comparisonId: string, input: AddTargetInput): Promise<TargetDto> {
      await owned(ownerId, comparisonId);
      const url = await vetUrl(input.url);
      const id = newId();
      await deps.db.tx(async () => {
        const c = await owned(ownerId, comparisonId);
        if (c.status === "running") throw conflict("Wait for the analysis to finish before adding websites");
        if ((await repo.countTargets(comparisonId)) >= LIMITS.targetsPerComparison)
          throw conflict(`A comparison can hold up to ${LIMITS.targetsPerComparison} websites`);
        if (await repo.hasTargetUrl(comparisonId, url)) throw conflict("This website is already in the comparison");
        await repo.insertTarget({ id, comparisonId, ownerId, label: input.label, url, at: nowIso(now()) });
      });
      return toTargetDto((await repo.findTarget(id, ownerId))!);
    },

    async removeTarget(ownerId: string, targetId: string): Promise<void> {
      const paths = await deps.db.tx(async () => {
        const t = await repo.findTarget(targetId, ownerId);
        if (!t) throw notFound("Website not found");
        const c = await owned(ownerId, t.comparison_id);
        if (c.status === "running") throw conflict("Websites cannot be removed while the analysis is running");
        const stored = await repo.snapshotPathsOfTarget(targetId);
        await repo.deleteTarget(targetId, ownerId);
        return stored;
      });
      // Only files no other snapshot shares (identical captures are one file).
      for (const p of paths) {
        try {
          await files.removeUnused(p, repo.pathInUse);
        } catch (e) {
          log("could not remove target screenshot", e);
        }
      }
    },

    /**
     * Starts a run (a new row in the run history) and answers with the comparison, now running.
     * `actor`: who started it, for the audit log (no one for a scheduled run).
     */
    async start(ownerId: string, comparisonId: string, trigger: RunTrigger = "manual", actor: Actor = NO_ONE): Promise<ComparisonDto> {
      if (!runs.available) throw unavailable("Website capture is not available on this server right now");
      const { comparison, targets, pages } = await deps.db.tx(async () => {
        const c = await owned(ownerId, comparisonId);
        if (c.status === "running") throw conflict("This comparison is already running");
        const targets = await repo.listTargets(comparisonId, ownerId);
        if (targets.length < 2) throw new HttpError(400, "At least 2 websites are required to run a comparison");
        const running = (await repo.listComparisons(ownerId)).filter((x) => x.status === "running").length;
        if (running >= LIMITS.runningPerUser)
          throw new HttpError(429, `You already have ${running} analyses running. Wait for one to finish.`);
        const pages = await repo.listPagesOfComparison(comparisonId, ownerId);
        await repo.markRunning(
          comparisonId,
          ownerId,
          pagesInRun(pages.length, colorSchemesOf(c.color_schemes).length),
          QUEUED_STAGE,
          nowIso(now()),
        );
        await repo.markTargetsCapturing(comparisonId);
        return { comparison: await owned(ownerId, comparisonId), targets: await repo.listTargets(comparisonId, ownerId), pages };
      });
      const runId = await runs.launch(
        {
          ownerId,
          comparisonId,
          name: comparison.name,
          trigger,
          consent: comparison.consent,
          colorSchemes: colorSchemesOf(comparison.color_schemes),
        },
        targets,
        pages,
      );
      // start is still synchronous (the runs section makes it async): until then its audit entry is written in the background.
      void deps.audit
        ?.recordIn(ownerId, actor, "run.started", comparisonId, { runId, trigger, name: comparison.name })
        .catch((e) => log("audit of a run start failed", e));
      return toComparisonDto(comparison);
    },

    snapshots,

    async diffs(ownerId: string, comparisonId: string): Promise<DiffDto[]> {
      await owned(ownerId, comparisonId);
      return (await repo.listDiffs(comparisonId, ownerId)).map(toDiffDto);
    },

    async findings(ownerId: string, comparisonId: string): Promise<FindingDto[]> {
      await owned(ownerId, comparisonId);
      return (await repo.listFindings(comparisonId, ownerId)).map(toFindingDto);
    },

    /** Absolute path of a snapshot's PNG, for its owner only (the files store; screenshot() reads any store). */
    async screenshotPath(ownerId: string, snapshotId: string): Promise<string> {
      const s = await repo.findSnapshot(snapshotId, ownerId);
      if (!s) throw notFound("Screenshot not found");
      const path = files.toAbsolute(s.screenshot_path);
      if (files.remote || !existsSync(path)) throw notFound("Screenshot not found");
      return path;
    },

    /** A snapshot's PNG to stream, for its owner only, from whichever store holds it. */
    async screenshot(ownerId: string, snapshotId: string): Promise<BlobBody> {
      const s = await repo.findSnapshot(snapshotId, ownerId);
      if (!s) throw notFound("Screenshot not found");
      const found = await files.open(s.screenshot_path);
      if (!found) throw notFound("Screenshot not found");
      return found;
    },

    /** The report as a download: JSON, or one self-contained HTML file with the screenshots inlined. */
    async exportReport(ownerId: string, comparisonId: string, format: ExportFormat): Promise<ReportFile> {
      const comparison = toComparisonDto(await owned(ownerId, comparisonId));
      const rows = await repo.latestSnapshots(comparisonId, ownerId);
      const targets = await repo.listTargets(comparisonId, ownerId);
      const targetUrls = new Map(targets.map((t) => [t.id, t.url]));
      const report: ComparisonReport = {
        exportedAt: nowIso(now()),
        comparison,
        targets: targets.map(toTargetDto),
        pages: (await repo.listPagesOfComparison(comparisonId, ownerId)).map((p) => toPageDto(p, targetUrls.get(p.target_id) ?? p.path)),
        snapshots: rows.map(toSnapshotDto),
        diffs: (await repo.listDiffs(comparisonId, ownerId)).map(toDiffDto),
        findings: (await repo.listFindings(comparisonId, ownerId)).map(toFindingDto),
      };
      const filename = reportFilename(comparison.name, format);
      if (format === "json") return { body: renderJsonReport(report), contentType: "application/json; charset=utf-8", filename };
      const images = new Map<string, string>();
      for (const r of rows) {
        const bytes = await files.read(r.screenshot_path);
        if (bytes) images.set(r.id, `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`);
      }
      return { body: renderHtmlReport(report, images), contentType: "text/html; charset=utf-8", filename };
    },

    recoverInterruptedRuns: (opts?: RecoverOptions) => runs.recoverInterruptedRuns(opts),

    /** A run of the comparison is still going in this process (the watch's skip-if-running). */
    isRunning: (comparisonId: string) => runs.isActive(comparisonId),

    interruptRuns: () => runs.interruptAll(),
    /** Resolves when no run is in flight and the stored files they let go of are deleted (tests, shutdown). */
    whenIdle: async () => {
      await runs.idle();
      await files.idle();
    },
    removeUserFiles: (userId: string) => files.removeUser(userId),

    /**
     * Removes screenshot files no snapshot names (left by a crash between a row's deletion and its
     * file's, a delete the store refused, or a capture cut off mid-write). Returns how many. At boot,
     * before any run starts; `whileRunning` when captures may be under way, in this process or in
     * other instances on the database: their files are pinned only in the process storing them, so
     * every file written within the grace is left, whatever its name.
     */
    async sweepScreenshots(opts: { whileRunning?: boolean } = {}): Promise<number> {
      if (!files.remote && !existsSync(files.root)) return 0;
      const bootedAt = now();
      // A capture started meanwhile writes under its snapshot id until it is stored: only older ones
      // are leftovers. An object store may be shared with other servers, each placing captures
      // before their rows are written: there only objects older than that could take are.
      const leftover = ({ stored, modifiedAt }: { stored: string; modifiedAt: number }) =>
        files.remote || opts.whileRunning
          ? modifiedAt < bootedAt - SHARED_STORE_GRACE_MS
          : /\/[0-9a-f]{64}\.png$/.test(stored) || modifiedAt < bootedAt - 60_000;
      let n = 0;
      for await (const png of files.storedPngs()) {
        try {
          if (leftover(png) && (await files.removeUnused(png.stored, repo.pathInUse))) n++;
        } catch (e) {
          log("screenshot sweep: could not check a file", e);
        }
      }
      // An object store's filmstrips of snapshots that are gone (the files store's go with their folder, or when listed).
      for (const f of await files.storedFilmstrips()) {
        if (f.modifiedAt >= bootedAt - SHARED_STORE_GRACE_MS || (await repo.findSnapshot(f.snapshotId, f.ownerId))) continue;
        await files.removeStoredFilmstrip(f.prefix).catch((e) => log("screenshot sweep: could not remove a filmstrip", e));
      }
      await files.idle();
      return n;
    },
  };
}

export type ComparisonsService = ReturnType<typeof comparisonsService>;
