// Changes between runs: found after a run completes (against the completed run before it) by a
// `changes.detect` job and stored with the run's change count, or found on request for any other
// pair; the pixel heat map of one page between two runs.
import type { SqlDb } from "#server/db/sql";
import type { Audience, LiveMessage } from "#server/live/hub";
import { badRequest, notFound } from "#server/http/errors";
import { newId, nowIso } from "#server/lib/ids";
import { comparisonsRepository, screenshotFiles, type RunRow, type ScreenshotFiles } from "#server/modules/comparisons/public";
import type { RunContext } from "#server/modules/comparisons/active-runs";
import { changesBetween, pageVolatility, withScreenshotPair } from "./between-runs";
import type { PageRole } from "#server/modules/capture/model";
import type { Change, ChangesQuery, ChangesResponse, RunChanges, RunReads, TargetChanges, VisualQuery } from "./model";
import { pageSetChanges, parseListed, type PageSet } from "./pages";
import { changesRepository, type ChangeRow } from "./repository";
import { pixelsWorker } from "./worker/pixels";
import { CHANGES_JOB, CHANGES_JOB_KEY, changesJobKey, type ChangesJob } from "./job";
import { drain, jobsService, type JobHandler, type JobHandlers, type JobsService } from "#server/modules/jobs/public";

export interface ChangesDeps {
  db: SqlDb;
  dataDir: string;
  /** Where the screenshots are (the comparisons service's); files under dataDir when absent. */
  files?: ScreenshotFiles;
  /** The run history's runs and snapshots. */
  runs: RunReads;
  log?: (msg: string, err?: unknown) => void;
  /**
   * Inside the transaction that stores a run's changes (alerts queue their deliveries there, so
   * they are stored with the changes or not at all); what it returns is called after the commit.
   */
  onChanges?: (changes: RunChanges) => Promise<(() => unknown) | void>;
  /** Live messages to the sockets of the workspace's members: a run's change count arrives after the run completed. */
  publish?: (message: LiveMessage, to: Audience) => unknown;
  /**
   * The pages a site's navigation and sitemaps list (the discovery module's, within its own time
   * limit); null when the site could not be read. Without it no run lists pages and no `pages` change is found.
   */
  listPages?: (siteUrl: string) => Promise<PageSet | null>;
  /** The app's jobs queue, where each completed run's detection is a job (without, one on `db`). */
  jobs?: JobsService;
  /**
   * Whether the process that completes a run also works its detection job at once (the single
   * process: the run closes once its changes are stored). False in a serve or a scheduler, which
   * leave the pixel work to the workers; true when absent.
   */
  detectHere?: boolean;
}

const NEED_TWO_RUNS = "Changes need two completed runs of this comparison";

/**
 * A run finished this long ago without a detection job was left by a process that stopped before
 * queueing it (it queues within seconds: the page listing's limit); younger ones are still its own.
 */
export const MISSED_AFTER_MS = 2 * 60_000;
const MISSED_BATCH = 200;
/** How often a process that runs jobs looks for such runs. */
const MISSED_SWEEP_MS = 5 * 60_000;

/** A run that never completes never claims its page sets: they are dropped after this long. */
const UNCLAIMED_MS = 15 * 60_000;

const toChangeRows = (run: RunRow, from: RunRow, targets: TargetChanges[]): ChangeRow[] =>
  targets.flatMap((t) =>
    t.changes.map((c, position) => ({
      id: newId(),
      run_id: run.id,
      from_run_id: from.id,
      comparison_id: run.comparison_id,
      owner_id: run.owner_id,
      target_id: t.targetId,
      viewport: c.viewport,
      kind: c.kind,
      severity: c.severity,
      summary: c.summary,
      before: c.before,
      after: c.after,
      evidence: JSON.stringify(c.evidence),
      position,
      page_id: c.pageId ?? null,
      color_scheme: c.colorScheme ?? "light",
      role: c.role ?? null,
      path: c.path ?? null,
    })),
  );

/** `page` (a page id, a role or `all`) and `colorScheme` (or `all`) as the changes API filters by them; `pages` changes are the site's. */
function inView(c: Change, page: string, scheme: string): boolean {
  if (c.kind === "pages") return true;
  const role = c.role ?? "home";
  return (page === "all" || c.pageId === page || role === page) && (scheme === "all" || (c.colorScheme ?? "light") === scheme);
}

export function changesService(deps: ChangesDeps) {
  const comparisons = comparisonsRepository(deps.db);
  const repo = changesRepository(deps.db);
  const runs = deps.runs;
  const files = deps.files ?? screenshotFiles(deps.dataDir);
  const pixels = pixelsWorker();
  const sources = { runs, repo, files, pixels };
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err));
  const jobs = deps.jobs ?? jobsService({ db: deps.db });
  const detectHere = deps.detectHere ?? true;
  /** Per run being scored: its sites' page sets as they are listed (a site that could not be read is absent). */
  const listing = new Map<string, Promise<Map<string, PageSet>>>();

  /** The two runs to compare: the ones asked for, or the last two completed. */
  async function pair(ownerId: string, comparisonId: string, q: ChangesQuery): Promise<{ from: RunRow; to: RunRow }> {
    await runs.ownedComparison(ownerId, comparisonId);
    const completed = async (id: string) => {
      const r = await runs.ownedRun(ownerId, comparisonId, id);
      if (r.status !== "completed") throw badRequest(`Run #${r.number} did not complete: only completed runs can be compared`);
      return r;
    };
    const to = q.to ? await completed(q.to) : (await runs.lastCompletedRuns(comparisonId, ownerId, 1))[0];
    if (!to) throw notFound(NEED_TWO_RUNS);
    const from = q.from ? await completed(q.from) : await runs.completedRunBefore(comparisonId, to.number);
    if (!from) throw notFound(NEED_TWO_RUNS);
    if (from.number >= to.number) throw badRequest("from must be an earlier run than to");
    return { from, to };
  }

  /** Changes found when `to` completed, if they were found against `from`. */
  async function stored(ownerId: string, from: RunRow, to: RunRow): Promise<TargetChanges[] | null> {
    if (to.change_count === null || (await runs.completedRunBefore(to.comparison_id, to.number))?.id !== from.id) return null;
    const rows = await repo.changes(to.id, from.id, ownerId);
    return (await comparisons.listTargets(to.comparison_id, ownerId)).map((t) => ({
      targetId: t.id,
      label: t.label,
      url: t.url,
      changes: rows
        .filter((r) => r.target_id === t.id)
        .map((r) => ({
          kind: r.kind as TargetChanges["changes"][number]["kind"],
          severity: r.severity,
          viewport: r.viewport,
          summary: r.summary,
          before: r.before,
          after: r.after,
          evidence: JSON.parse(r.evidence) as TargetChanges["changes"][number]["evidence"],
          pageId: r.page_id ?? null,
          role: (r.role ?? "home") as PageRole,
          path: r.path ?? (URL.canParse(t.url) ? new URL(t.url).pathname : "/"),
          colorScheme: r.color_scheme ?? "light",
        })),
    }));
  }

  /** The page sets a run stored, by site. */
  async function storedSets(run: RunRow): Promise<Map<string, PageSet>> {
    return new Map(
      (await repo.pageSets(run.id, run.owner_id)).map((r) => [r.target_id, { nav: parseListed(r.nav), sitemap: parseListed(r.sitemap) }]),
    );
  }

  /** Each site's `pages` changes from one run's page sets to the next's, after its other changes. */
  async function withPageChanges(
    targets: TargetChanges[],
    before: Map<string, PageSet>,
    after: Map<string, PageSet>,
  ): Promise<TargetChanges[]> {
    const out: TargetChanges[] = [];
    // One site at a time, in order, as the sites' pages are read.
    for (const t of targets) {
      const was = before.get(t.targetId);
      const is = after.get(t.targetId);
      if (!was || !is) {
        out.push(t);
        continue;
      }
      out.push({
        ...t,
        changes: [...t.changes, ...pageSetChanges(was, is, await repo.sitePages(t.targetId))],
      });
    }
    return out;
  }

  /** The sites' page sets listed while the run was scored (each within the lister's time limit); none without a lister. */
  async function claimPageSets(runId: string): Promise<Map<string, PageSet>> {
    const pending = listing.get(runId);
    listing.delete(runId);
    return pending ? await pending : new Map();
  }

  /** A run's listed page sets, as its rows (a set stored already is kept). */
  async function storeSets(to: RunRow, sets: Map<string, PageSet>): Promise<void> {
    const at = nowIso();
    for (const [targetId, set] of sets)
      await repo.storePageSet({
        run_id: to.id,
        target_id: targetId,
        owner_id: to.owner_id,
        nav: set.nav && JSON.stringify(set.nav),
        sitemap: set.sitemap && JSON.stringify(set.sitemap),
        listed_at: at,
      });
  }

  /**
   * A completed run's changes against the completed run before it, stored with its change count
   * and then handed on (live message, alerts). Idempotent: an attempt that finds the count set (an
   * earlier attempt stored it, then lost its lease or its process) stores and sends nothing.
   */
  async function detect(p: ChangesJob, signal?: AbortSignal): Promise<string> {
    const to = await runs.findRun(p.runId, p.comparisonId, p.ownerId);
    if (!to || to.status !== "completed") return "run gone";
    if (to.change_count !== null) return "already stored";
    const from = await runs.completedRunBefore(p.comparisonId, to.number);
    if (!from) return "first run";
    const targets = await withPageChanges(
      await changesBetween(sources, p.ownerId, await comparisons.listTargets(p.comparisonId, p.ownerId), from, to),
      await storedSets(from),
      await storedSets(to),
    );
    // Another worker holds the job now: its attempt stores them.
    signal?.throwIfAborted();
    const count = targets.reduce((n, t) => n + t.changes.length, 0);
    // Either run may have been pruned or the comparison deleted meanwhile: then there is nothing to store.
    const stored = await deps.db.tx(async () => {
      if (!(await runs.findRun(to.id, p.comparisonId, p.ownerId)) || !(await runs.findRun(from.id, p.comparisonId, p.ownerId)))
        return "run gone";
      if (!(await repo.storeChanges(to.id, toChangeRows(to, from, targets), count))) return "already stored";
      const afterCommit = await deps.onChanges?.({
        ownerId: p.ownerId,
        comparisonId: p.comparisonId,
        runId: to.id,
        fromRunId: from.id,
        runNumber: to.number,
        targets,
      });
      return { afterCommit };
    });
    if (typeof stored === "string") return stored;
    // The run's status went out when it completed; its change count only now (timelines refresh on it).
    deps.publish?.(
      { type: "RUN_CHANGES", payload: { comparisonId: p.comparisonId, runId: to.id, changeCount: count } },
      { kind: "workspace", workspaceId: p.ownerId },
    );
    try {
      await stored.afterCommit?.();
    } catch (e) {
      log(`change alerts for comparison ${p.comparisonId} failed`, e);
    }
    return "stored";
  }

  /** Queues the detection of the runs `runsWithoutDetection` finds; how many were queued. */
  async function queueMissed(finishedBefore: number): Promise<number> {
    const missed = await repo.runsWithoutDetection(nowIso(finishedBefore), CHANGES_JOB_KEY, MISSED_BATCH);
    for (const r of missed) {
      const payload: ChangesJob = { runId: r.id, comparisonId: r.comparison_id, ownerId: r.owner_id };
      await jobs.enqueue({ kind: CHANGES_JOB, payload, ownerId: r.owner_id, dedupeKey: changesJobKey(r.id) });
    }
    if (missed.length > 0) log(`queued the change detection of ${missed.length} completed runs that had none`);
    return missed.length;
  }

  const handler: JobHandler<ChangesJob> = {
    run: (p, ctx) => detect(p, ctx.signal),
    // The run stays "pending"; the console's dead jobs list shows the job and can queue it again.
    dead: (job) =>
      log(`changes of run ${(JSON.parse(job.payload) as ChangesJob).runId} were not found: ${job.last_error ?? "its lease ran out"}`),
  };
  const jobHandlers: JobHandlers = { [CHANGES_JOB]: handler };

  return {
    /** Per target, what changed from one completed run to a later one (default: the last two). */
    async changes(ownerId: string, comparisonId: string, q: ChangesQuery): Promise<ChangesResponse> {
      const { from, to } = await pair(ownerId, comparisonId, q);
      const targets =
        (await stored(ownerId, from, to)) ??
        (await withPageChanges(
          await changesBetween(sources, ownerId, await comparisons.listTargets(comparisonId, ownerId), from, to),
          await storedSets(from),
          await storedSets(to),
        ));
      const page = q.page ?? "home";
      const scheme = q.colorScheme ?? "light";
      return {
        from: from.id,
        to: to.id,
        targets: targets.map((t) => ({
          ...t,
          changes: t.changes.filter((c) => inView(c, page, scheme)),
        })),
      };
    },

    /** The pixel heat map of one page between two runs, as a PNG. */
    async visual(ownerId: string, comparisonId: string, q: VisualQuery): Promise<Uint8Array> {
      const { from, to } = await pair(ownerId, comparisonId, q);
      if ((await comparisons.findTarget(q.targetId, ownerId))?.comparison_id !== comparisonId) throw notFound("Website not found");
      const want = q.page ?? "home";
      const scheme = q.colorScheme ?? "light";
      const page = async (run: RunRow) =>
        (await runs.runSnapshots(run.id, ownerId)).find(
          (s) =>
            s.target_id === q.targetId &&
            s.viewport === q.viewport &&
            (s.page_id === want || (s.role ?? "home") === want) &&
            (s.color_scheme ?? "light") === scheme &&
            !s.step,
        );
      const before = await page(from);
      const after = await page(to);
      if (!before || !after) {
        const which = want === "home" && scheme === "light" ? "" : ` (page ${want}, ${scheme})`;
        throw notFound(`This website was not captured at ${q.viewport}${which} in both runs`);
      }
      // Parts that move by themselves are masked (and outlined in amber), as when the changes were found.
      const boxes = (await pageVolatility(sources, from, before, after)).boxes;
      const png = await withScreenshotPair(files, before, after, (a, b) => pixels.heatmap(a, b, boxes));
      if (!png) throw notFound("Screenshot not found");
      return png;
    },

    /**
     * The runner's after-completion hook: stores the page sets the run listed, then queues its
     * detection job, which finds its changes against the completed run before it (here, when this
     * process detects; otherwise by a worker). The first run only lists: it keeps a null count.
     */
    async onRunCompleted(run: Readonly<RunContext>): Promise<void> {
      const sets = await claimPageSets(run.runId);
      const to = await runs.findRun(run.runId, run.comparisonId, run.ownerId);
      if (!to || to.status !== "completed") return;
      const from = await runs.completedRunBefore(run.comparisonId, to.number);
      // One unit: whichever process claims the job finds the sets stored.
      const job = await deps.db.tx(async () => {
        // The run may have been pruned or its comparison deleted meanwhile: then there is nothing to store.
        if (!(await runs.findRun(to.id, run.comparisonId, run.ownerId))) return null;
        await storeSets(to, sets);
        if (!from) return null;
        const payload: ChangesJob = { runId: to.id, comparisonId: run.comparisonId, ownerId: run.ownerId };
        return jobs.enqueue({ kind: CHANGES_JOB, payload, ownerId: run.ownerId, dedupeKey: changesJobKey(to.id) });
      });
      // One attempt here, now; a failed one is retried by the job runner when due.
      if (job && detectHere) await drain({ queue: jobs, handlers: jobHandlers, ids: [job], dueOnly: true, concurrency: 1, log });
    },

    /** The `changes.detect` job kind, for the app's job runner. */
    jobHandlers,

    /**
     * Queues the detection of completed runs whose completing process stopped before it queued one
     * (finished before `finishedBefore`, epoch ms; their page sets went with that process).
     */
    queueMissed: (finishedBefore = jobs.now() - MISSED_AFTER_MS) => queueMissed(finishedBefore),

    /**
     * `queueMissed` now, then every `everyMs`, for a process that runs the jobs. `nothingInFlight`:
     * no other process completes runs and this one has started none (the single process at boot),
     * so the first pass takes every run. Returns how to stop.
     */
    keepQueueingMissed({
      nothingInFlight = false,
      everyMs = MISSED_SWEEP_MS,
    }: { nothingInFlight?: boolean; everyMs?: number } = {}): () => void {
      const pass = (finishedBefore?: number) =>
        void queueMissed(finishedBefore ?? jobs.now() - MISSED_AFTER_MS).catch((e) => log("queueing missed change detection failed", e));
      pass(nothingInFlight ? jobs.now() : undefined);
      const timer = setInterval(() => pass(), everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },

    /**
     * The runner's after-capture hook: lists each site's pages (navigation and sitemaps) while the
     * run is scored, for the completion hook to store with the run (its job compares them with the previous run's). A site that was not
     * captured, or cannot be read within the lister's limit, is left out (no change is found against it).
     */
    onRunCaptured(run: Readonly<RunContext>): void {
      const list = deps.listPages;
      if (!list) return;
      // A site none of whose pages could be captured is not read again (it is likely down, and has nothing to compare).
      // Claimed synchronously, so the completion hook finds it whenever the sites are read.
      const sets = comparisons
        .listTargets(run.comparisonId, run.ownerId)
        .then((targets) =>
          Promise.all(
            targets
              .filter((t) => t.status === "completed")
              .map(async (t) => {
                try {
                  return [t.id, await list(t.url)] as const;
                } catch (e) {
                  log(`listing the pages of ${t.url} failed`, e);
                  return [t.id, null] as const;
                }
              }),
          ),
        )
        .then((all) => new Map(all.filter((e): e is readonly [string, PageSet] => e[1] !== null)));
      listing.set(run.runId, sets);
      setTimeout(() => {
        if (listing.get(run.runId) === sets) listing.delete(run.runId);
      }, UNCLAIMED_MS).unref();
    },

    /** Stops the pixels worker (shutdown). */
    close: () => pixels.close(),
  };
}

export type ChangesService = ReturnType<typeof changesService>;
