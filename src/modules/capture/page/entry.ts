// The page script: everything the capture runs inside a captured page. page-bundle.ts bundles this
// file with the gatherers and the libraries they use (culori, web-vitals) into one classic script,
// which capture.ts installs in every document before the page's own scripts. It starts the
// web-vitals listeners at once and offers its functions to page.evaluate on one global.

import { contrastProbes, gatherAccessibility } from "../gatherers/accessibility";
import { gatherCopy } from "../gatherers/copy";
import { gatherElements } from "../gatherers/elements";
import { gatherLayout } from "../gatherers/layout";
import { gatherMeta } from "../gatherers/meta";
import { gatherPalette } from "../gatherers/palette";
import { gatherResources } from "../gatherers/resources";
import { gatherTypography } from "../gatherers/typography";
import { readVitals, watchVitals } from "../gatherers/vitals";
import { PAGE_GLOBAL } from "./global";
import { createScan, type Scan } from "./scan";
import { missedLazyContent, waitForFonts, wakeLazyContent, watchScrollReactions } from "./settle";
import type { DomMeasurement, ScanArgs } from "./types";

/** The gatherers that read the laid-out DOM, by name; they share one scan of the page. */
export const DOM_GATHERERS = {
  meta: (_scan: Scan) => gatherMeta(),
  palette: gatherPalette,
  typography: gatherTypography,
  layout: gatherLayout,
  elements: gatherElements,
  copy: gatherCopy,
  accessibility: gatherAccessibility,
  contrastProbes,
};
export type DomGathererName = keyof typeof DOM_GATHERERS;

/** Everything about the page the DOM can tell. */
function measure(args: ScanArgs): DomMeasurement {
  const scan = createScan(args);
  return {
    ...gatherMeta(),
    palette: gatherPalette(scan),
    typography: gatherTypography(scan),
    layout: gatherLayout(scan),
    elements: gatherElements(scan),
    copy: gatherCopy(scan),
    accessibility: gatherAccessibility(scan),
    contrastProbes: contrastProbes(scan),
  };
}

/** One gatherer on its own (its tests use this). */
function gather(args: ScanArgs & { name: DomGathererName }): ReturnType<(typeof DOM_GATHERERS)[DomGathererName]> {
  return DOM_GATHERERS[args.name](createScan(args));
}

const api = {
  readVitals,
  readResources: (_: void) => gatherResources(),
  wakeLazyContent,
  missedLazyContent,
  waitForFonts,
  measure,
  gather,
};
export type PageApi = typeof api;

// Frames get the init script too; only the top document is measured.
if (window === window.top && !Object.hasOwn(window, PAGE_GLOBAL)) {
  Object.defineProperty(window, PAGE_GLOBAL, { value: api });
  watchVitals();
  watchScrollReactions();
}
