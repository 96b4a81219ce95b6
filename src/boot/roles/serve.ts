// `serve` on PostgreSQL: HTTP, pages, /api and /ws. It drives the runs started through it (their
// state machines live here), their captures going where runCapture says; it runs no jobs and does
// no scheduling (the worker and scheduler roles do).
import type { BootContext } from "../context";
import { runDrivers } from "../run-drivers";
import { servePublic } from "../serve";
import { atMost, compose, relayLive, runCapture } from "./compose";

export async function startServe(ctx: BootContext): Promise<() => Promise<void>> {
  const { logger } = ctx;
  const capture = runCapture(ctx);
  const { deps, services } = compose(ctx, {
    capture: capture.capture,
    analyser: capture.analyser,
    drives: true,
    // Mission Control's switch is recorded here; the agents run in the scheduler holding its lease.
    hostsAgents: false,
  });
  const closeRelay = await relayLive(ctx, services.live);
  const drivers = runDrivers(ctx, services);
  drivers.start();
  // Runs whose instance stopped are failed with that reason; those another instance drives are left to it.
  await drivers.failOrphans();
  const http = await servePublic(ctx, deps, services);

  return async () => {
    await http.stop();
    await atMost(5_000, services.comparisons.whenIdle());
    await atMost(2_000, services.comparisons.interruptRuns());
    await capture.close();
    await atMost(2_000, services.comparisons.whenIdle());
    const alertsSent = await Promise.race([services.watch.alertsIdle().then(() => true), Bun.sleep(3_000).then(() => false)]);
    if (!alertsSent) logger.warn("shutdown: change alerts waiting for a retry stay queued for the next start");
    await drivers.stop();
    await closeRelay();
  };
}
