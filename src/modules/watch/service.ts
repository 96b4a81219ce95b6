// The competitor watch as the app uses it: schedules (and the Scheduler that starts their runs),
// alert rules and their dispatch after a run. Comparisons are reached only through the injected
// `start`/`isRunning`, so this module never writes the comparisons tables.

import type { SqlDb } from "#server/db/sql";
import { HttpError } from "#server/http/errors";
import { nowIso } from "#server/lib/ids";
import type { Mailer } from "#server/modules/admin/mailer";
import type { Resolver } from "#server/modules/capture/public";
import type { RunChanges } from "#server/modules/changes/model";
import type { ChangeHistory } from "#server/modules/changes/public";
import { pagesInRun } from "#server/modules/comparisons/public";
import { alertsService, type DispatchResult, type QueuedAlerts } from "./alerts/service";
import type { RetryOptions } from "./alerts/retry";
import { DeferRun, Scheduler, systemClock, type Clock, type ScheduleEvent } from "./schedule/scheduler";
import { scheduleService } from "./schedule/service";
import { watchRepository } from "./repository";
import { DIGEST_JOB, digestService } from "./digest/service";
import { ALERT_JOB } from "./alerts/service";
import type { JobHandlers, JobsService } from "#server/modules/jobs/public";

/**
 * Pages a scheduled run may add to the capture queue. The pool refuses jobs past 200 queued (40
 * per owner, the workspace), and a refused job fails its page, so a run that would not fit waits instead (see
 * src/modules/capture/browser/pool.ts). Counting pages still to capture of every running comparison is
 * conservative: pages being captured right now are counted though they left the queue.
 */
export const SCHEDULED_PAGE_BUDGET = { total: 200, perOwner: 40 };
/** How soon a deferred slot is tried again: pages finish in seconds to a minute. */
export const DEFER_RETRY_MS = 30_000;

export interface WatchDeps {
  db: SqlDb;
  /** Starts a run of the comparison in its owning workspace (the comparisons service's `start`). */
  startRun(ownerId: string, comparisonId: string, trigger: "schedule"): unknown;
  /** Whether this process still has a run of the comparison going (a run draining after its row settled counts). */
  isRunning(comparisonId: string): boolean;
  allowPrivateTargets: boolean;
  /** Origin that links in alerts point at, e.g. https://intel.example.com. */
  publicUrl: string;
  mailer?: Mailer;
  resolve?: Resolver;
  retry?: RetryOptions;
  now?: () => number;
  clock?: Clock;
  budget?: typeof SCHEDULED_PAGE_BUDGET;
  /** The stored changes, for the digest (none: the digest lists runs and alerts only). */
  changes?: ChangeHistory;
  log?: (msg: string, err?: unknown) => void;
  /** The app's jobs queue; alert deliveries and digests are jobs in it (without, one on `db`). */
  jobs?: JobsService;
}

/**
 * A run's changes to alert on. The run compared against (for the link to the change view) and the
 * run's number may be unknown: the view then picks its own pair, and the message leaves the number out.
 */
export type AlertedChanges = Omit<RunChanges, "fromRunId" | "runNumber"> & {
  fromRunId?: string | null;
  runNumber?: number | null;
};

export function describeScheduleEvent(e: ScheduleEvent): string {
  const base = `schedule ${e.comparisonId} (slot ${e.slot})`;
  if (e.type === "started")
    return `${base}: run started${e.missedSlots ? `, ${e.missedSlots} missed slot(s) folded into this one` : ""}; next ${e.nextRunAt ?? "never"}`;
  if (e.type === "skipped") return `${base}: skipped, ${e.reason}; next ${e.nextRunAt ?? "never"}`;
  return `${base}: ${e.reason}; retry at ${e.nextRunAt}`;
}

export function watchService(deps: WatchDeps) {
  const repo = watchRepository(deps.db);
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err ?? ""));
  const budget = deps.budget ?? SCHEDULED_PAGE_BUDGET;
  const ownsComparison = (comparisonId: string, ownerId: string) => repo.owns(comparisonId, ownerId);

  /** Starts a due scheduled run, or defers it while the capture queue has no room for its pages. */
  async function startScheduled(comparisonId: string): Promise<void> {
    const c = await repo.find(comparisonId);
    if (!c) throw new Error("the comparison no longer exists");
    // Every page of every site, at each viewport, in each colour scheme.
    const schemes = (JSON.parse(c.color_schemes) as unknown[]).length || 1;
    const pages = pagesInRun(Math.max(c.page_count, c.target_count), schemes);
    const pending = await repo.pendingPages(c.owner_id);
    // With nothing in flight a run always starts, whatever its size: waiting would not make room.
    if (pending.owner > 0 && pending.owner + pages > budget.perOwner)
      throw new DeferRun(`${pending.owner} of the owner's pages are still waiting to be captured`, DEFER_RETRY_MS);
    if (pending.total > 0 && pending.total + pages > budget.total)
      throw new DeferRun(`${pending.total} pages are still waiting to be captured`, DEFER_RETRY_MS);
    try {
      await deps.startRun(c.owner_id, comparisonId, "schedule");
    } catch (err) {
      // The owner's running-analyses limit is a queue that is full for now, not a reason to lose the slot.
      if (err instanceof HttpError && err.status === 429) throw new DeferRun(err.message, DEFER_RETRY_MS);
      throw err;
    }
  }

  // A schedule saved, removed or brought forward wakes the scheduler at once, not at its next look
  // (up to a minute away). It may run in another instance (PostgreSQL: the `scheduler` lease's
  // holder), which hears the announce through followScheduleChanges(); here a poke is a direct call.
  const shared = deps.db.dialect.name !== "sqlite";
  const changed = () => {
    scheduler.poke();
    if (shared)
      void schedules.repo.announce().catch((e) => log("schedules: telling the scheduler failed (it looks again within a minute)", e));
  };
  const schedules = scheduleService({ db: deps.db, ownsComparison, now: deps.now, onChange: changed });
  const scheduler = new Scheduler({
    repo: schedules.repo,
    isRunning: async (comparisonId) => deps.isRunning(comparisonId) || (await repo.find(comparisonId))?.status === "running",
    startRun: (comparisonId) => startScheduled(comparisonId),
    clock: deps.clock,
    log: (event) => log(describeScheduleEvent(event)),
  });

  const alerts = alertsService({
    db: deps.db,
    ownsComparison,
    allowPrivateTargets: deps.allowPrivateTargets,
    mailer: deps.mailer,
    resolve: deps.resolve,
    retry: deps.retry,
    now: deps.now,
    jobs: deps.jobs,
  });

  const digest = digestService({
    db: deps.db,
    mailer: deps.mailer,
    changes: deps.changes,
    publicUrl: deps.publicUrl,
    now: deps.now,
    clock: deps.clock,
    log,
    jobs: deps.jobs,
  });

  /** The change view of a run: what the alert links to. */
  function changeLink(comparisonId: string, runId: string, fromRunId?: string | null): string {
    const q = new URLSearchParams({ id: comparisonId, from: fromRunId ?? "", to: runId });
    return `${deps.publicUrl.replace(/\/+$/, "")}/comparison?${q}`;
  }

  const sending = new Set<Promise<unknown>>();

  /**
   * Every alert rule of the comparison gets the run's changes that pass its filter. The owner (the
   * workspace) must own the comparison (else nothing is sent).
   */
  async function queueRunAlerts(input: AlertedChanges): Promise<QueuedAlerts> {
    const c = await repo.find(input.comparisonId);
    if (!c || c.owner_id !== input.ownerId) return [];
    return alerts.queue({
      ownerId: input.ownerId,
      comparison: { id: c.id, name: c.name },
      run: { id: input.runId, number: input.runNumber ?? null },
      link: changeLink(c.id, input.runId, input.fromRunId),
      targets: input.targets,
    });
  }

  async function dispatchRunChanges(input: AlertedChanges): Promise<DispatchResult[]> {
    return alerts.settle(await queueRunAlerts(input));
  }

  /**
   * Delivers in the background: a receiver that is down takes minutes of retries, and the run must
   * not look busy meanwhile (a draining run counts as running, so its next scheduled slot would be skipped).
   */
  function settleInBackground(comparisonId: string, queued: Promise<QueuedAlerts>): void {
    const p: Promise<unknown> = queued
      .then((q) => alerts.settle(q))
      .catch((e) => log(`change alerts for comparison ${comparisonId} failed`, e))
      .finally(() => sending.delete(p));
    sending.add(p);
  }

  /** The watch's job kinds, for the app's job runner. */
  const jobHandlers: JobHandlers = { [ALERT_JOB]: alerts.handler, [DIGEST_JOB]: digest.handler };

  return {
    jobHandlers,
    schedules,
    alerts,
    scheduler,
    digest,
    changeLink,
    dispatchRunChanges,
    /** A run's alerts, queued and delivered in the background. */
    queueRunChanges(input: AlertedChanges): void {
      settleInBackground(input.comparisonId, queueRunAlerts(input));
    },
    /**
     * Change detection's hook, inside the transaction that stores a run's changes: the alerts'
     * delivery jobs are stored with the changes or not at all. Delivers them (in the background)
     * once the caller calls what it returns, after the commit; a process that stops before that
     * leaves them queued for any job runner.
     */
    async alertRunChanges(input: AlertedChanges): Promise<() => void> {
      const queued = await queueRunAlerts(input);
      return () => settleInBackground(input.comparisonId, Promise.resolve(queued));
    },
    /**
     * One of the owner's runs ended, so the running limit and the page budget that deferred their
     * slots may have room now: those slots are tried at once instead of at their 30 s retry (which
     * left the capture slots idle for ~40 % of a 200-comparison drain, bench/watch-drain.bench.ts).
     */
    async runEnded(ownerId: string): Promise<void> {
      if ((await schedules.repo.bringDeferredForward(ownerId, nowIso((deps.clock ?? systemClock).now()))) > 0) changed();
    },
    /**
     * PostgreSQL, while this instance schedules: schedules changed through any instance re-plan this
     * scheduler at once. Each time the LISTEN is in place (first, and again after a drop) it looks
     * again too: announces sent before were not heard. Resolves with how to stop following; nothing
     * to follow on SQLite.
     */
    async followScheduleChanges(): Promise<() => Promise<void>> {
      if (!shared) return async () => {};
      const sub = await schedules.repo.onAnnounced(
        () => scheduler.poke(),
        () => scheduler.poke(),
      );
      return () => sub.unlisten();
    },
    /** Resolves once every alert queued so far was delivered or failed for good (tests, shutdown). */
    async alertsIdle(): Promise<void> {
      while (sending.size > 0) await Promise.all([...sending]);
    },
  };
}

export type WatchService = ReturnType<typeof watchService>;
