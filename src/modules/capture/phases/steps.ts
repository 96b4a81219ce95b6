// Between open and settle, for a page with steps (steps/model.ts): once the page has loaded (within
// a bound) and its consent banner is answered (it may cover what the steps click), the steps run
// (steps/run-steps.ts); the page they leave is the one that settles and is measured. A step that
// cannot be done fails the page with its number, its error and a viewport screenshot of where it stopped.
//
// A site's login runs once a run (steps/sessions.ts): the capture that runs it hands back the
// browser's session after the login's last step; the others start from that session (open.ts) and
// skip those steps.

import type { Locator } from "playwright-core";
import { SETTLE_WAITS } from "../timing/settle-page";
import { loginPrefixLength, type SessionState, type StepFailure } from "../steps/model";
import { runSteps, StepFailed } from "../steps/run-steps";
import type { CaptureJob, CaptureStage } from "../worker/protocol";
import { CaptureError } from "./capture-error";
import type { CaptureLifetime } from "./lifetime";
import type { OpenedPage } from "./open";
import { saveScreenshot } from "./screenshot";

/** The steps together take at most this long ... */
export const STEPS_LIMIT_MS = 40_000;
/** ... and leave at least this much of the capture's limit to settle, measure and screenshot the page. */
const MEASURE_RESERVE_MS = 15_000;
const FAILURE_SHOT_TIMEOUT_MS = 5_000;

/** A page whose steps stopped: the step, a screenshot of where (null if none could be taken), and a login done before it. */
export class StepFailedError extends CaptureError {
  constructor(
    readonly step: StepFailure,
    readonly screenshotPath: string | null,
    readonly session: SessionState | null,
  ) {
    super(`Step ${step.index}: ${step.error}`);
  }
}

export async function takeSteps(
  opened: OpenedPage,
  job: CaptureJob,
  onStage: (stage: CaptureStage) => void,
  lifetime: CaptureLifetime,
  scrub: (text: string) => string,
): Promise<{ session: SessionState | null }> {
  const { page, context, race } = opened;
  const steps = job.steps ?? [];
  const budget = () => Math.max(1, lifetime.remaining() - MEASURE_RESERVE_MS);
  onStage("steps");
  await loaded(opened, budget());
  // Answered now, it is out of the way of the steps; the settle looks again for what is left on the page they lead to.
  if (opened.consent) await race(opened.consent.settle(page, budget()));
  await lifetime.stopIfLate();

  const login = job.keepSession ? loginPrefixLength(steps) : 0;
  let session: SessionState | null = null;
  const typedSecrets: Locator[] = [];
  try {
    await runSteps({
      page,
      steps,
      siteOrigin: job.siteOrigin ?? new URL(job.url).origin,
      secrets: job.secrets ?? {},
      scrub,
      skip: job.session?.skip ?? 0,
      deadline: Date.now() + Math.min(STEPS_LIMIT_MS, budget()),
      race,
      typedSecrets,
      // The session as the login left it, before later steps change it (one may sign out).
      afterStep: async (index) => {
        if (index === login) session = (await race(context.storageState())) as SessionState;
      },
    });
  } catch (err) {
    if (!(err instanceof StepFailed)) throw err;
    throw new StepFailedError(err.failure, await failureShot(opened, job, typedSecrets), session);
  }
  // The steps may have led to another document: the settle starts from its load.
  await loaded(opened, budget());
  return { session };
}

/** Waits (bounded) for the page's `load`; a page that never fires it is taken as it is. */
async function loaded({ page, race }: OpenedPage, budgetMs: number): Promise<void> {
  await race(page.waitForLoadState("load", { timeout: Math.min(SETTLE_WAITS.load, budgetMs) })).catch((e) => {
    if (e instanceof CaptureError) throw e;
  });
}

/** The viewport where the steps stopped, fields that took a secret masked; written where the page's screenshot goes. */
async function failureShot({ page, race }: OpenedPage, job: CaptureJob, typedSecrets: Locator[]): Promise<string | null> {
  try {
    const png = await race(page.screenshot({ type: "png", timeout: FAILURE_SHOT_TIMEOUT_MS, mask: typedSecrets }));
    await saveScreenshot(job.screenshotPath, png);
    return job.screenshotPath;
  } catch {
    return null;
  }
}
