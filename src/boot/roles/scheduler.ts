// `scheduler`: scheduled runs, digests, the agents, host metrics and alerts, and failing the runs of
// instances that stopped, all while it holds the `scheduler` lease; a second scheduler stands by
// and takes over once the first stops renewing. It drives the scheduled runs it starts. Its port
// answers health only: ready whether it holds the lease or stands by.
import { healthFor } from "#server/app";
import type { BootContext } from "../context";
import { serveHealthOnly } from "../health-server";
import { runDrivers } from "../run-drivers";
import { type Scheduling, scheduling } from "../scheduling";
import { atMost, compose, relayLive, runCapture } from "./compose";

export async function startScheduler(ctx: BootContext): Promise<() => Promise<void>> {
  const capture = runCapture(ctx);
  let schedule: Scheduling | null = null;
  const { deps, services } = compose(ctx, {
    capture: capture.capture,
    analyser: capture.analyser,
    schedulerLease: () => schedule?.lease() ?? null,
    drives: true,
  });
  const closeRelay = await relayLive(ctx, services.live);
  const drivers = runDrivers(ctx, services);
  drivers.start();
  schedule = scheduling(ctx, services, { drivers });
  const health = serveHealthOnly(ctx, healthFor(deps, services));
  schedule.start();

  return async () => {
    await schedule.stop();
    await atMost(5_000, services.comparisons.whenIdle());
    await atMost(2_000, services.comparisons.interruptRuns());
    await capture.close();
    await atMost(2_000, services.comparisons.whenIdle());
    await drivers.stop();
    await health.stop();
    await closeRelay();
  };
}
