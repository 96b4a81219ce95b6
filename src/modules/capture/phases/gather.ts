// The capture's third phase, on the server's side of the page: the page script's measurement of the
// DOM (its gatherers, ../gatherers, run inside the page) and the typefaces Chromium drew; then,
// once the page has been looked at for good, what its load left behind: requests and bytes, the
// problems seen, the web fonts that fell back, the final URL and the written filmstrip.

import { fontsNotLoaded, readDrawnFonts } from "../fonts/rendered-fonts";
import { VIEWPORTS } from "../model";
import type { DomMeasurement, ResourceTotals } from "../page/types";
import { auditsAccessibility } from "../page-script/axe";
import { callPage } from "../page-script/page-script";
import type { PageProblems } from "../watchers/page-problems";
import type { CaptureJob, CaptureStage } from "../worker/protocol";
import type { OpenedPage } from "./open";
import type { LoadVisuals } from "../filmstrip/load-visuals";

export interface Measured {
  dom: DomMeasurement;
  /** What the page drew its text in; null when the protocol is unavailable. */
  drawn: Awaited<ReturnType<typeof readDrawnFonts>>;
}

export interface LoadReport {
  resources: ResourceTotals;
  failures: ReturnType<PageProblems["read"]>;
  /** The drawn families and the declared ones that fell back; null when unreadable. */
  fonts: { rendered: { family: string; share: number }[]; notLoaded: { family: string; share: number }[] } | null;
  finalUrl: string;
  /** Speed Index and visually complete from the load's filmstrip, or why not. */
  visuals: LoadVisuals;
}

export async function gatherPage(opened: OpenedPage, job: CaptureJob, onStage: (stage: CaptureStage) => void): Promise<Measured> {
  onStage("measuring");
  const viewport = VIEWPORTS[job.viewport];
  const dom = await opened.race(
    callPage(opened.page, "measure", {
      maxY: job.maxHeightPx,
      viewportWidth: viewport.width,
      viewportHeight: viewport.height,
      audited: auditsAccessibility(job),
    }),
  );
  const drawn = await opened.race(readDrawnFonts(opened.context, opened.page));
  return { dom, drawn };
}

/** Reads what the load left, and stops watching; call once the page has been looked at for good. */
export async function gatherLoad({ page, race, network, problems, filmstrip }: OpenedPage, { dom, drawn }: Measured): Promise<LoadReport> {
  const resources: ResourceTotals = network.available()
    ? { bytes: network.totals.bytes, requests: network.totals.requests, largestResource: network.totals.largest }
    : await race(callPage(page, "readResources", undefined));
  await network.detach();
  // Read before the context closes: that aborts whatever is still loading, which the page never failed on its own.
  problems.stop();
  const failures = problems.read();
  const fonts = drawn && {
    rendered: drawn.rendered,
    notLoaded: fontsNotLoaded(dom.typography.families, drawn.rendered, drawn.faces, failures.network.failed),
  };
  const finalUrl = page.url();
  await filmstrip.saved(); // written in the background meanwhile; the snapshot is stored with it
  const visuals = await filmstrip.visuals();
  return { resources, failures, fonts, finalUrl, visuals };
}
