// The page script: everything the capture runs inside a captured page. page-script/page-bundle.ts bundles this
// file with the gatherers and the libraries they use (culori, web-vitals) into one classic script.
// Only its early part (early.ts) is installed before the page's own scripts; this whole script is
// evaluated into the page the first time the capture calls a gatherer, after the load it times, and
// adds the gatherers to the global the early part defined. A document the early part missed gets
// everything from here (its watchers start late: what they missed is missing).

import { findConsentBanners } from "../consent/page-banners";
import { contrastProbes, gatherAccessibility } from "../gatherers/accessibility";
import { audit } from "./axe-audit";
import { gatherCopy } from "../gatherers/copy";
import { gatherElements } from "../gatherers/elements";
import { gatherLayout } from "../gatherers/layout";
import { gatherMeta } from "../gatherers/meta";
import { gatherPalette } from "../gatherers/palette";
import { gatherResources } from "../gatherers/resources";
import { gatherTypography } from "../gatherers/typography";
import { PAGE_GLOBAL } from "./global";
import { createScan, type Scan } from "./scan";
import { earlyApi, installEarly } from "./early";
import { changedSinceWatch, forgetOwnChanges, watchForChanges } from "./settle";
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

/** Everything about the page the DOM can tell; `audited`: axe will audit the page after this look. */
function measure({ audited, ...args }: ScanArgs & { audited?: boolean }): DomMeasurement {
  const scan = createScan(args);
  return {
    ...gatherMeta(),
    palette: gatherPalette(scan),
    typography: gatherTypography(scan),
    layout: gatherLayout(scan),
    elements: gatherElements(scan),
    copy: gatherCopy(scan),
    accessibility: gatherAccessibility(scan),
    contrastProbes: contrastProbes(scan, { audited }),
  };
}

/** One gatherer on its own (its tests use this). */
function gather(args: ScanArgs & { name: DomGathererName }): ReturnType<(typeof DOM_GATHERERS)[DomGathererName]> {
  return DOM_GATHERERS[args.name](createScan(args));
}

const lateApi = {
  readResources: (_: void) => gatherResources(),
  audit,
  measure,
  gather,
  watchForChanges,
  changedSinceWatch,
  forgetOwnChanges,
  findConsentBanners,
};
export type PageApi = typeof earlyApi & typeof lateApi;

// Only the top document is measured.
if (window === window.top) {
  installEarly();
  // The early part's own functions stay: their watchers' state lives in that copy.
  const api = (window as unknown as Record<string, Record<string, unknown>>)[PAGE_GLOBAL]!;
  for (const [name, fn] of Object.entries(lateApi)) if (!(name in api)) api[name] = fn;
}
