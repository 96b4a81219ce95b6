// More timing loads of a page its capture already measured once: asked for by a run once every
// site's first load at the viewport is in, for the pages a timing finding could be about
// (analysis timingFindingReach). Nothing is screenshotted or measured besides the vitals.
import type { Browser } from "playwright-core";
import type { TimingJob } from "../worker/protocol";
import { browserLabel } from "../browser/browser-label";
import type { CaptureDeps } from "../phases/open";
import { openCaptureContext } from "../browser/capture-context";
import { startCaptureEgress } from "../browser/capture-egress";
import { SETTLE_WAITS } from "./settle-page";
import { sampleTiming, type TimingSummary } from "./timing-samples";

export async function timePage(browser: Browser, job: TimingJob, deps: CaptureDeps = {}): Promise<TimingSummary> {
  const started = Date.now();
  const { guard, proxy } = await startCaptureEgress(job.allowPrivate, deps);
  try {
    const egress = { proxy, guard, blocked: proxy?.blocked ?? [] };
    const browserName = await browserLabel(browser);
    return await sampleTiming(() => openCaptureContext(browser, job.viewport, egress, job.colorScheme), job.url, {
      profile: job.profile,
      own: job.own,
      earlier: job.earlier,
      browser: browserName,
      max: job.max,
      // The run picked this page because a finding could be about it.
      matters: () => true,
      budget: () => job.totalTimeoutMs - (Date.now() - started),
      paintWaitMs: SETTLE_WAITS.paint,
    });
  } finally {
    await proxy?.close().catch(() => {});
  }
}
