// Captures one page at one viewport, in five phases under one total time limit:
//   open       a fresh browser context behind the egress proxy, the page watched and navigated (phases/open.ts)
//              then, for a page with steps, its steps: a login, a tab opened, a widget hidden (phases/steps.ts)
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
import { StepFailedError, takeSteps } from "./phases/steps";
import { summarisePage } from "./phases/summarise";
import type { SessionState } from "./steps/model";
import { scrubber, scrubDeep } from "./steps/secrets";
import type { CaptureJob, CaptureStage } from "./worker/protocol";

export { CaptureError, StepFailedError, type CaptureDeps, type CaptureStage };

export async function capturePage(
  browser: Browser,
  job: CaptureJob,
  onStage: (stage: CaptureStage) => void,
  deps: CaptureDeps = {},
): Promise<{ extraction: Extraction; screenshotPath: string; thumb: GrayImage; session?: SessionState }> {
  const stepped = (job.steps?.length ?? 0) > 0;
  // Secret values never leave the capture: not in an error, not in what the page showed after they were typed.
  const scrub = scrubber(Object.values(job.secrets ?? {}));
  return withinDeadline(job, async (lifetime) => {
    const opened = await openPage(browser, job, onStage, deps, lifetime);
    const { session } = stepped ? await takeSteps(opened, job, onStage, lifetime, scrub) : { session: null };
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
    // Extra timing loads open the URL afresh, without the steps: a page with steps is timed by its own load only.
    const { extraction, thumb } = await summarisePage(
      opened,
      stepped ? { ...job, timingSamples: 1, mobileTimingProfile: "unthrottled" } : job,
      lifetime,
      {
        seen,
        load,
        vitals: settling.vitals,
        saving,
        audit,
        consent: settling.consent,
      },
    );
    return {
      extraction: job.secrets ? scrubDeep(extraction, scrub) : extraction,
      screenshotPath: job.screenshotPath,
      thumb,
      ...(session ? { session } : {}),
    };
  }).catch((err: unknown) => {
    throw scrubbedError(err, scrub);
  });
}

/** `err` with secret values masked out of its message and stack (the stack repeats the message). */
function scrubbedError(err: unknown, scrub: (text: string) => string): unknown {
  if (!(err instanceof Error)) return typeof err === "string" ? scrub(err) : err;
  const [message, stack] = [scrub(err.message), scrub(err.stack ?? "")];
  if (message === err.message && stack === (err.stack ?? "")) return err;
  // The worker words errors that are not capture's own as "Capture failed: <first line>".
  const scrubbed = err instanceof CaptureError ? err : new CaptureError(`Capture failed: ${message.split("\n")[0]}`);
  scrubbed.message = err instanceof CaptureError ? message : scrubbed.message;
  scrubbed.stack = stack;
  return scrubbed;
}
