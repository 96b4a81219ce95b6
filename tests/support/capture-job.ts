import { join } from "node:path";
import type { CaptureJob } from "#server/modules/capture/worker/protocol";

/**
 * A capture job as the capture tests use it: desktop, loopback allowed, the product's total limit
 * (20 s was within reach of a real capture on a busy machine), one timing load (the tests count
 * the requests of the capture's own load; extra loads would add theirs), its PNG a fresh file in `dir`.
 */
export function testCaptureJob(url: string, dir: string, overrides: Partial<CaptureJob> = {}): CaptureJob {
  return {
    jobId: crypto.randomUUID(),
    url,
    viewport: "desktop",
    screenshotPath: join(dir, `${crypto.randomUUID()}.png`),
    allowPrivate: true,
    navigationTimeoutMs: 10_000,
    totalTimeoutMs: 60_000,
    maxHeightPx: 16_000,
    timingSamples: 1,
    ...overrides,
  };
}
