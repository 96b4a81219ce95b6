// The work a deployment does once: scheduled runs, digests, the agents, host metrics and their
// alerts, failing runs whose instance stopped, and sweeping screenshots no snapshot names. The
// single process on SQLite does it outright; on PostgreSQL it is done only while this process
// holds the `scheduler` lease, started when the lease is gained and stopped when it is lost, so a
// second scheduler stands by for the first.
import type { Services } from "#server/app";
import { leaseKeeper, type LeaseKeeper, type LeaseState } from "#server/modules/leases/public";
import { pruneCaptureAnswers } from "./capture-jobs";
import type { BootContext } from "./context";
import type { RunDrivers } from "./run-drivers";

export const SCHEDULER_LEASE = "scheduler";
/** How soon the agents start or stop after Mission Control's switch was flipped through a serve. */
const FOLLOW_EVERY_MS = 3_000;
/** How often capture-job answers nobody read are looked for (they go once a day old). */
const PRUNE_EVERY_MS = 3_600_000;
/** How often screenshots no snapshot names are swept (a delete the store refused leaves one). */
export const SWEEP_SCREENSHOTS_EVERY_MS = 24 * 3_600_000;

export interface Scheduling {
  start(): void;
  stop(): Promise<void>;
  /** Who does the scheduling: this process, or (standing by) another; null on SQLite, where this process always does. */
  lease(): (LeaseState & { self: string }) | null;
}

export function scheduling(ctx: BootContext, services: Services, opts: { drivers?: RunDrivers; leaseTtlMs?: number } = {}): Scheduling {
  const { log, logger } = ctx;
  let acting = false;
  let sweepTimer: ReturnType<typeof setInterval> | null = null;
  let followTimer: ReturnType<typeof setInterval> | null = null;
  let pruneTimer: ReturnType<typeof setInterval> | null = null;
  let screenshotTimer: ReturnType<typeof setInterval> | null = null;
  let unfollowSchedules: Promise<() => Promise<void>> | null = null;
  // One change at a time: a lease lost while the work was still starting waits for the start.
  let changing: Promise<void> = Promise.resolve();

  const begin = async () => {
    acting = true;
    // An agent system that was on before the restart comes back on.
    void services.system.resume();
    // Host metrics to admins' sockets every few seconds, and the alert-threshold checks.
    services.admin.sampler.start();
    // Scheduled runs: slots missed while no scheduler ran run once now, then on time. Schedules
    // saved through any serve wake it at once (a look once listening covers those saved meanwhile).
    if (ctx.shared) {
      unfollowSchedules = services.watch.followScheduleChanges();
      unfollowSchedules.catch((e) => log("scheduler: following schedule changes failed; they are seen within a minute", e));
    }
    void services.watch.scheduler.start().catch((e) => log("scheduler: first pass failed (retrying)", e));
    void services.watch.digest.start().catch((e) => log("watch digest: first pass failed", e));
    // Screenshots no snapshot names. Other instances may be storing a capture whose row is not
    // written yet, and what protects such a file in its own process (files.ts's pins) is not seen
    // here: only files older than the sweep's grace go (sweepScreenshots({ whileRunning })). On
    // SQLite the boot sweep (roles/all.ts) was the first; with several instances, taking the lease is.
    const sweepScreenshots = () =>
      void services.comparisons
        .sweepScreenshots({ whileRunning: true })
        .then((n) => n > 0 && logger.info({ removed: n }, "screenshot sweep: removed screenshots no snapshot names"))
        .catch((e) => log("screenshot sweep failed", e));
    if (ctx.shared) sweepScreenshots();
    screenshotTimer = setInterval(sweepScreenshots, SWEEP_SCREENSHOTS_EVERY_MS);
    screenshotTimer.unref?.();
    if (ctx.shared) {
      // The agent system's switch may be flipped through any serve: follow it.
      followTimer = setInterval(
        () => void services.system.follow().catch((e) => log("agents: following the switch failed", e)),
        FOLLOW_EVERY_MS,
      );
      followTimer.unref?.();
      const prune = () => void pruneCaptureAnswers(ctx).catch((e) => log("capture jobs: the prune failed", e));
      prune();
      pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
      pruneTimer.unref?.();
    }
    const drivers = opts.drivers;
    if (drivers) {
      // Runs whose instance stopped (its drive lease ran out) are failed with that reason.
      const sweep = () => void drivers.failOrphans().catch((e) => log("failing runs of stopped instances failed", e));
      sweep();
      sweepTimer = setInterval(sweep, drivers.ttlMs);
      sweepTimer.unref?.();
    }
  };
  const end = async () => {
    if (!acting) return;
    acting = false;
    if (sweepTimer) clearInterval(sweepTimer);
    if (followTimer) clearInterval(followTimer);
    if (pruneTimer) clearInterval(pruneTimer);
    if (screenshotTimer) clearInterval(screenshotTimer);
    sweepTimer = followTimer = pruneTimer = screenshotTimer = null;
    const unfollow = unfollowSchedules;
    unfollowSchedules = null;
    if (unfollow) await (await unfollow.catch(() => null))?.().catch(() => {});
    services.admin.sampler.stop();
    services.watch.scheduler.stop();
    services.watch.digest.stop();
    await services.system.shutdown();
  };

  let keeper: LeaseKeeper | null = null;
  if (ctx.shared)
    keeper = leaseKeeper({
      db: ctx.db,
      name: SCHEDULER_LEASE,
      holder: ctx.instance,
      ttlMs: opts.leaseTtlMs,
      log,
      onChange: (held) => {
        logger.info({ lease: SCHEDULER_LEASE, held }, held ? "scheduler lease taken: scheduling" : "scheduler lease lost: standing by");
        changing = changing.then(held ? begin : end).catch((e) => log("scheduler: changing over failed", e));
      },
    });

  return {
    start() {
      if (keeper) {
        logger.info({ lease: SCHEDULER_LEASE }, "scheduler: asking for the lease");
        keeper.start();
      } else void begin();
    },
    async stop() {
      if (keeper) await keeper.stop();
      await changing;
      await end();
    },
    lease: () => (keeper ? { ...keeper.state(), self: ctx.instance } : null),
  };
}
