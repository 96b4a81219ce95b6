// How a capture lets a page settle before measuring it: `load` (bounded), the vitals read while
// nothing of ours has touched the page, then the scroll that wakes lazy content, web fonts and a
// quiet network — and a second scroll when the first missed something.

import type { Page } from "playwright-core";
import { CaptureError } from "./capture-error";
import type { FilmstripRecorder } from "./filmstrip";
import type { NetworkQuiet } from "./network-quiet";
import type { Vitals } from "./page/types";
import { callPage } from "./page-script";

/** Every wait of the settle, in ms; each is also cut short by what is left of the capture's budget. */
export const SETTLE_WAITS = {
  /** For `load`: slow third-party tags must not sink the capture, so we carry on without it. */
  load: 15_000,
  /** For the network to go quiet after the scroll. */
  quietWait: 2_500,
  /**
   * Silence that counts as quiet. Shorter than Playwright's 500 ms networkidle: `load` has already
   * waited for the page's scripts, the scroll before this wait takes a while itself, and a page
   * that rendered more after it gets a second scroll and wait.
   */
  quiet: 250,
  /** After a page that never went quiet (polling, a hung request): at most this for what a second scroll woke. */
  noisyPageWait: 500,
  fonts: 3_000,
  /** For the first contentful paint before vitals are read; only a page that paints nothing waits it out. */
  paint: 1_000,
  /** Per animation frame while scrolling; frames only stall on a page that is badly stuck. */
  frame: 100,
} as const;

export interface SettleDeps {
  /** Races a step against the tab crashing. */
  race: <T>(p: Promise<T>) => Promise<T>;
  /** ms the settle may still spend. */
  budget: () => number;
  /** ms `load` may still take (what is left of the navigation limit). */
  loadBudget: () => number;
  quiet: NetworkQuiet;
  filmstrip: FilmstripRecorder;
  maxY: number;
}

/** Settles the page; returns the vitals of its load, read before our scroll could move them. */
export async function settlePage(page: Page, { race, budget, loadBudget, quiet, filmstrip, maxY }: SettleDeps): Promise<Vitals> {
  const within = (ms: number) => Math.min(ms, Math.max(1, budget()));
  await race(page.waitForLoadState("load", { timeout: Math.max(1, Math.min(SETTLE_WAITS.load, budget(), loadBudget())) })).catch((e) => {
    if (e instanceof CaptureError) throw e; // the tab crashed; anything else only ends the wait
  });
  // There is no quiet wait before the scroll: the one after it covers whatever the page fetched
  // after load as well as what the scroll woke, and a page that changed meanwhile gets a second pass.
  const vitals = await race(callPage(page, "readVitals", { paintWaitMs: within(SETTLE_WAITS.paint) }));
  await race(filmstrip.stop()); // loaded and painted: the scroll below is ours, not the page's load
  const wake = () => race(callPage(page, "wakeLazyContent", { maxY, frameTimeoutMs: SETTLE_WAITS.frame }));
  const reached = await wake();
  await race(callPage(page, "waitForFonts", within(SETTLE_WAITS.fonts)));
  const idle = await race(quiet.waitForQuiet(SETTLE_WAITS.quiet, within(SETTLE_WAITS.quietWait)));
  if (await race(callPage(page, "missedLazyContent", { reached, maxY }))) {
    // Requests that kept a noisy page from going quiet (a hung image, a long poll) are not
    // waited for again; what this scroll wakes is.
    const stale = idle ? undefined : quiet.inFlight();
    await wake();
    await race(quiet.waitForQuiet(SETTLE_WAITS.quiet, within(idle ? SETTLE_WAITS.quietWait : SETTLE_WAITS.noisyPageWait), stale));
  }
  return vitals;
}
