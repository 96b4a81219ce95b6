import type { LiveHub } from "#server/live/hub";
import type { HostAlertsService } from "./host-alerts";
import type { SystemMetrics } from "./model";

/** Every few seconds: sample the host, push SYSTEM_METRICS to signed-in admins, check host alert thresholds. */
export function metricsSampler(deps: {
  collect: () => Promise<SystemMetrics>;
  live: Pick<LiveHub, "publish">;
  hostAlerts: Pick<HostAlertsService, "check">;
  intervalMs: number;
  log?: (msg: string, err?: unknown) => void;
}) {
  let timer: ReturnType<typeof setInterval> | null = null;
  let busy = false;

  async function tick(): Promise<SystemMetrics> {
    const m = await deps.collect();
    deps.live.publish({ type: "SYSTEM_METRICS", payload: m }, { kind: "admins" });
    await deps.hostAlerts.check(m);
    return m;
  }

  return {
    tick,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        tick()
          .catch((e) => deps.log?.("metrics sampler failed", e))
          .finally(() => {
            busy = false;
          });
      }, deps.intervalMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type MetricsSampler = ReturnType<typeof metricsSampler>;
