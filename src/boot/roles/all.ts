// `all`: the single process of an embedded install, and `design-intel` with no command. It serves,
// drives its runs on its own capture browsers, runs the jobs and schedules. On PostgreSQL it takes
// part in leases like any other instance (several may run), so the scheduling is still done once.
import { captureJobsOn } from "../capture-jobs";
import type { BootContext } from "../context";
import { openCapturing } from "../pool";
import { poolCaptureTools } from "../run-tools";
import { runDrivers } from "../run-drivers";
import { type Scheduling, scheduling } from "../scheduling";
import { servePublic } from "../serve";
import { atMost, compose, relayLive } from "./compose";

export async function startAll(ctx: BootContext): Promise<() => Promise<void>> {
  const { log, logger } = ctx;
  const capturing = openCapturing(ctx);
  let schedule: Scheduling | null = null;
  const { deps, services } = compose(ctx, {
    capture: poolCaptureTools(capturing.pool),
    analyser: capturing.analyser,
    captureReadiness: () => capturing.pool.readiness(),
    // On PostgreSQL its browsers also take the capture jobs of the serves and schedulers beside it.
    jobHandlers: ctx.shared ? captureJobsOn(ctx, capturing) : undefined,
    drives: true,
    // On PostgreSQL only the scheduler lease's holder runs the agents, whichever instance switched them on.
    hostsAgents: ctx.shared ? () => schedule?.lease()?.held === true : true,
  });
  const closeRelay = await relayLive(ctx, services.live);
  const drivers = runDrivers(ctx, services);
  drivers.start();
  schedule = scheduling(ctx, services, ctx.shared ? { drivers } : {});
  // Runs a crash left half-done are failed with a reason, never left running.
  await drivers.failOrphans();
  // Screenshots no snapshot names (a crash between a row's deletion and its file's): nothing runs
  // yet. With other instances on the database something may be capturing right now: the holder of
  // the scheduler lease sweeps them, leaving recent files (scheduling.ts).
  if (!ctx.shared) void services.comparisons.sweepScreenshots().catch((e) => log("screenshot sweep failed", e));

  const http = await servePublic(ctx, deps, services);
  schedule.start();
  // Jobs (alert deliveries, digests): those left by a stop or a crash run now, retries when due.
  services.jobRunner.start();
  // Completed runs a crash left without their change detection job get one (alone on SQLite: every such run at once).
  const stopMissed = services.changes.keepQueueingMissed({ nothingInFlight: !ctx.shared });

  return async () => {
    await schedule.stop();
    await http.stop();
    await atMost(5_000, services.comparisons.whenIdle());
    // Runs that did not finish in time end with the restart reason, then stop writing before the DB closes.
    await atMost(2_000, services.comparisons.interruptRuns());
    await capturing.pool.close();
    await atMost(2_000, services.comparisons.whenIdle());
    // Alerts of runs that just finished get a moment to go out; one waiting for a retry is a job in
    // the database, run by the next start (an attempt cut short here is tried again once its lease runs out).
    const alertsSent = await Promise.race([services.watch.alertsIdle().then(() => true), Bun.sleep(3_000).then(() => false)]);
    if (!alertsSent) logger.warn("shutdown: change alerts waiting for a retry stay queued for the next start");
    stopMissed();
    await atMost(2_000, services.jobRunner.stop());
    capturing.analyser.close();
    await drivers.stop();
    await closeRelay();
  };
}
