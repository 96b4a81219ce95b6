// How a capture lets a page settle before measuring it: `load` (bounded), the vitals read while
// nothing of ours has touched the page, then the scroll that wakes lazy content and web fonts (the
// first pass); then a quiet network, and a second scroll when the first missed something.

import type { Page } from "playwright-core";
import { CaptureError } from "../phases/capture-error";
import type { FilmstripRecorder } from "../filmstrip/filmstrip";
import type { NetworkQuiet } from "../watchers/network-quiet";
import type { Vitals } from "../page/types";
import { callPage } from "../page-script/page-script";

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

/** Where the first pass left the page: the vitals of its load, and how far down the scroll reached. */
export interface FirstPass {
  vitals: Vitals;
  reached: number;
}

/**
 * The first pass: `load`, the vitals (read before our scroll could move them), the scroll that
 * wakes lazy content and the web fonts. What the page shows then is, on most pages, what it shows
 * for good; settleNetwork() waits to be sure while the capture already measures.
 */
export async function settleFirstPass(page: Page, { race, budget, loadBudget, filmstrip, maxY }: SettleDeps): Promise<FirstPass> {
  const within = (ms: number) => Math.min(ms, Math.max(1, budget()));
  await race(page.waitForLoadState("load", { timeout: Math.max(1, Math.min(SETTLE_WAITS.load, budget(), loadBudget())) })).catch((e) => {
    if (e instanceof CaptureError) throw e; // the tab crashed; anything else only ends the wait
  });
  // There is no quiet wait before the scroll: the one after it covers whatever the page fetched
  // after load as well as what the scroll woke, and a page that changed meanwhile gets a second pass.
  const vitals = await race(callPage(page, "readVitals", { paintWaitMs: within(SETTLE_WAITS.paint) }));
  await race(filmstrip.stop()); // loaded and painted: the scroll below is ours, not the page's load
  const reached = await wake(page, race, maxY);
  await race(callPage(page, "waitForFonts", within(SETTLE_WAITS.fonts)));
  return { vitals, reached };
}

/**
 * The rest: the network goes quiet, and the page is scrolled again when the first scroll missed
 * something. Resolves whether it scrolled again (what was measured meanwhile is then stale).
 */
export async function settleNetwork(
  page: Page,
  { race, budget, quiet, maxY }: SettleDeps,
  reached: number,
): Promise<{ scrolledAgain: boolean }> {
  const within = (ms: number) => Math.min(ms, Math.max(1, budget()));
  const idle = await race(quiet.waitForQuiet(SETTLE_WAITS.quiet, within(SETTLE_WAITS.quietWait)));
  if (!(await race(callPage(page, "missedLazyContent", { reached, maxY })))) return { scrolledAgain: false };
  // Requests that kept a noisy page from going quiet (a hung image, a long poll) are not
  // waited for again; what this scroll wakes is.
  const stale = idle ? undefined : quiet.inFlight();
  await wake(page, race, maxY);
  await race(quiet.waitForQuiet(SETTLE_WAITS.quiet, within(idle ? SETTLE_WAITS.quietWait : SETTLE_WAITS.noisyPageWait), stale));
  return { scrolledAgain: true };
}

const wake = (page: Page, race: SettleDeps["race"], maxY: number) =>
  race(callPage(page, "wakeLazyContent", { maxY, frameTimeoutMs: SETTLE_WAITS.frame }));
