// The capture's second phase: let the opened page settle (timing/settle-page.ts: `load`, the
// vitals, the scroll that wakes lazy content and fonts), then look at it while its network goes
// quiet. Most pages show now what they will show once their network is quiet, so the look (gather
// and screenshot) runs meanwhile, and runs again only if something moved: a request, a change to
// the document, a second scroll (decision 0014).

import type { Page } from "playwright-core";
import type { ConsentOutcome } from "../consent/consent";
import type { Vitals } from "../page/types";
import { callPage } from "../page-script/page-script";
import { settleFirstPass, settleNetwork, type SettleDeps } from "../timing/settle-page";
import type { CaptureJob, CaptureStage } from "../worker/protocol";
import type { CaptureLifetime } from "./lifetime";
import type { OpenedPage } from "./open";

/** A page past its first settling pass: the vitals of its load, and where the rest of the settle starts. */
export interface Settling {
  vitals: Vitals;
  /** How far down the first scroll reached. */
  reached: number;
  deps: SettleDeps;
  /** What was done about a consent banner, and what is masked; null when the job asked for nothing. */
  consent: ConsentOutcome | null;
}

export async function settlePage(
  opened: OpenedPage,
  job: CaptureJob,
  onStage: (stage: CaptureStage) => void,
  lifetime: CaptureLifetime,
): Promise<Settling> {
  onStage("settling");
  const deps: SettleDeps = {
    race: opened.race,
    budget: () => Math.max(0, lifetime.remaining() - 8000),
    loadBudget: () => job.navigationTimeoutMs - (Date.now() - lifetime.started),
    quiet: opened.quiet,
    filmstrip: opened.filmstrip,
    maxY: job.maxHeightPx,
  };
  const { vitals, reached } = await settleFirstPass(opened.page, deps);
  // The consent script has worked beside the load; the look waits for it and for a banner to go.
  const consent = opened.consent ? await opened.race(opened.consent.settle(opened.page, deps.budget())) : null;
  return { vitals, reached, deps, consent };
}

/** Runs `look` while the page's network goes quiet; again once it has, if the page moved meanwhile. */
export async function lookWhileSettling<T>(page: Page, settling: Settling, look: () => Promise<T>): Promise<T> {
  const { race, quiet } = settling.deps;
  const networkEvents = quiet.events();
  await race(callPage(page, "watchForChanges", undefined));
  const rest = settleNetwork(page, settling.deps, settling.reached);
  rest.catch(() => {}); // awaited below; a crash meanwhile fails the look first
  let seen = await look();
  const { scrolledAgain } = await rest;
  if (scrolledAgain || quiet.events() !== networkEvents || (await race(callPage(page, "changedSinceWatch", undefined)))) {
    seen = await look();
  }
  return seen;
}
