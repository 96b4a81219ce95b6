// `worker`: captures and analysis. Its capture browsers (local, or the browser servers of
// BROWSER_WS_ENDPOINTS) take the capture jobs, storing each screenshot under the key its run
// records, and its analyser scores the runs' pairs (`analysis.pair` jobs); it also runs the other
// job kinds (alert deliveries, digests): claims are atomic, so any number of workers share one
// queue. Its port answers health only.
import { healthFor } from "#server/app";
import { captureJobsOn, pairRunnerOn } from "../capture-jobs";
import type { BootContext } from "../context";
import { serveHealthOnly } from "../health-server";
import { openCapturing } from "../pool";
import { poolCaptureTools } from "../run-tools";
import { atMost, compose, relayLive } from "./compose";

export async function startWorker(ctx: BootContext): Promise<() => Promise<void>> {
  const capturing = openCapturing(ctx);
  const jobHandlers = captureJobsOn(ctx, capturing);
  const pairs = pairRunnerOn(ctx, jobHandlers);
  const { deps, services } = compose(ctx, {
    capture: poolCaptureTools(capturing.pool),
    analyser: capturing.analyser,
    captureReadiness: () => capturing.pool.readiness(),
    jobHandlers,
    // Captures enough to keep every capture slot busy, and two more for alerts and digests (pairs have a runner of their own).
    jobConcurrency: ctx.env.CAPTURE_CONCURRENCY + 2,
  });
  // Alerts a job sends are live messages too: they reach the sockets on the serve instances.
  const closeRelay = await relayLive(ctx, services.live);
  const health = serveHealthOnly(ctx, healthFor(deps, services));
  services.jobRunner.start();
  pairs.start();
  // Completed runs whose serve stopped before queueing their change detection get a job.
  const stopMissed = services.changes.keepQueueingMissed();
  ctx.logger.info(
    { kinds: services.jobRunner.kinds, worker: services.jobRunner.worker },
    `worker: running jobs of kinds ${services.jobRunner.kinds.join(", ")}`,
  );

  return async () => {
    // An attempt cut short is tried again by another worker once its lease runs out.
    stopMissed();
    await atMost(5_000, Promise.all([services.jobRunner.stop(), pairs.stop()]));
    await capturing.close();
    await health.stop();
    await closeRelay();
  };
}
