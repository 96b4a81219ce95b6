// Captures one page at one viewport, in five phases under one total time limit:
//   open       a fresh browser context behind the egress proxy, the page watched and navigated (phases/open.ts)
//   settle     load, vitals, the scroll that wakes lazy content, the consent banner dealt with, then a
//              quiet network (phases/settle.ts, consent/)
//   gather     the page script's measurement and the drawn fonts; once looked at, what the load left (phases/gather.ts)
//              and, on the desktop capture, axe-core's audit of the page as looked at (page-script/axe.ts)
//   screenshot the capped full-page screenshot, written beside the job's other files (phases/screenshot.ts)
//   summarise  the screenshot's pixels, the timing samples and the extraction (phases/summarise.ts)
// Gather and screenshot together are the look the settle phase takes while the network goes quiet.

import type { Browser } from "playwright-core";
import type { GrayImage } from "#server/lib/image/image";
import type { Extraction } from "./model";
import { auditPage, auditsAccessibility, AXE_TIMEOUT_MS, type AuditOutcome } from "./page-script/axe";
import { CaptureError } from "./phases/capture-error";
import { gatherLoad, gatherPage } from "./phases/gather";
import { withinDeadline } from "./phases/lifetime";
import { openPage, type CaptureDeps } from "./phases/open";
import { saveScreenshot, screenshotPage } from "./phases/screenshot";
import { lookWhileSettling, settlePage } from "./phases/settle";
import { summarisePage } from "./phases/summarise";
import type { CaptureJob, CaptureStage } from "./worker/protocol";

export { CaptureError, type CaptureDeps, type CaptureStage };

export async function capturePage(
  browser: Browser,
  job: CaptureJob,
  onStage: (stage: CaptureStage) => void,
  deps: CaptureDeps = {},
): Promise<{ extraction: Extraction; screenshotPath: string; thumb: GrayImage }> {
  return withinDeadline(job, async (lifetime) => {
    const opened = await openPage(browser, job, onStage, deps, lifetime);
    const settling = await settlePage(opened, job, onStage, lifetime);
    const seen = await lookWhileSettling(opened.page, settling, async () => {
      const measured = await gatherPage(opened, job, onStage);
      return { ...measured, ...(await screenshotPage(opened, job, measured.dom, onStage)) };
    });
    // The page as looked at for good: axe audits it in the page while the server reads what the load
    // left and the screenshot's pixels, so the audit's time mostly overlaps theirs.
    const audit: Promise<AuditOutcome> | null =
      auditsAccessibility(job) && !deps.skipAudit
        ? auditPage(opened.page, Math.min(AXE_TIMEOUT_MS, Math.max(0, lifetime.remaining() - 5000)))
        : null;
    const load = await gatherLoad(opened, seen);
    // The browser is done with this page once the audit is: let it tear the context down while the pixels are read.
    void (audit ?? Promise.resolve()).then(() => lifetime.closeContext());
    const saving = saveScreenshot(job.screenshotPath, seen.png);
    saving.catch(() => {}); // awaited once the pixels are read; this only keeps a failure from going unhandled meanwhile
    const { extraction, thumb } = await summarisePage(opened, job, lifetime, {
      seen,
      load,
      vitals: settling.vitals,
      saving,
      audit,
      consent: settling.consent,
    });
    return { extraction, screenshotPath: job.screenshotPath, thumb };
  });
}
