// The part of the page script that must be in the page before the page's own scripts run: the
// web-vitals listeners (they see the load from its start) and the count of what reacts to scrolling.
// It is the only part installed as an init script, so the capture's own code weighs as little as
// possible on the load it times; the gatherers (entry.ts) are added once the load is over.

import { readVitals, watchVitals } from "../gatherers/vitals";
import { PAGE_GLOBAL } from "./global";
import { missedLazyContent, waitForFonts, wakeLazyContent, watchScrollReactions } from "./settle";

export const earlyApi = { readVitals, wakeLazyContent, missedLazyContent, waitForFonts };

/** Defines the page global in the top document, once, and starts the watchers. */
export function installEarly(): void {
  if (window !== window.top || Object.hasOwn(window, PAGE_GLOBAL)) return;
  // A plain object, so the gatherers can be added to it later.
  Object.defineProperty(window, PAGE_GLOBAL, { value: { ...earlyApi } });
  watchVitals();
  watchScrollReactions();
}
