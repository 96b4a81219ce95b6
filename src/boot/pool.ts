// The capture browsers of a process that captures (the single process, a worker): local Chromium,
// or the browser servers BROWSER_WS_ENDPOINTS names, each context through the egress proxy.
import { browserEgress } from "#server/env";
import { findChromium } from "#server/lib/chromium";
import { type Analyser, createAnalyser } from "#server/modules/analysis";
import { CapturePool } from "#server/modules/capture/browser/pool";
import type { BootContext } from "./context";

export interface Capturing {
  pool: CapturePool;
  analyser: Analyser;
  close(): Promise<void>;
}

export function openCapturing(ctx: BootContext): Capturing {
  const { env, logger } = ctx;
  const pool = new CapturePool({
    log: (m) => logger.warn(m),
    concurrency: env.CAPTURE_CONCURRENCY,
    chromiumPath: findChromium(env.CHROMIUM_PATH),
    allowPrivate: env.ALLOW_PRIVATE_TARGETS,
    navigationTimeoutMs: env.CAPTURE_NAV_TIMEOUT_MS,
    totalTimeoutMs: env.CAPTURE_TOTAL_TIMEOUT_MS,
    timingSamples: env.CAPTURE_TIMING_SAMPLES,
    mobileTimingProfile: env.CAPTURE_MOBILE_PROFILE,
    ...(env.BROWSER_WS_ENDPOINTS.length ? { remote: { endpoints: env.BROWSER_WS_ENDPOINTS, egress: browserEgress(env) } } : {}),
  });
  // Capture browsers launch alongside the boot (on their own threads and processes), so the first
  // analysis doesn't wait for them; CAPTURE_LAZY leaves them to the first capture (and closes idle
  // ones), for a host where the memory of idle browsers matters more than that wait.
  if (!env.CAPTURE_LAZY) pool.warm();
  const analyser = createAnalyser();
  return {
    pool,
    analyser,
    async close() {
      await pool.close();
      analyser.close();
    },
  };
}
