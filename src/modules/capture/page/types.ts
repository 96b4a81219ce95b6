// What the page script hands back to the capture, in the contract's own types (capture/model.ts).

import type { AccessibilityMeasurement, ContrastProbe } from "../gatherers/accessibility";
import type { Extraction } from "../model";

/** The parts of an Extraction that only the DOM can tell. */
export type DomMeasurement = Pick<
  Extraction,
  "title" | "metaDescription" | "pageHeight" | "typography" | "layout" | "elements" | "copy"
> & {
  accessibility: AccessibilityMeasurement;
  palette: Pick<Extraction["palette"], "text" | "background" | "buttons"> & { salient: Extraction["palette"]["dominant"] };
  /** Runs whose contrast the screenshot decides; the capture consumes them and does not store them. */
  contrastProbes: ContrastProbe[];
};

export type Vitals = Pick<Extraction["timing"], "ttfbMs" | "fcpMs" | "lcpMs" | "cls" | "domContentLoadedMs" | "loadMs" | "lcpElement"> & {
  /**
   * The load's main-thread tasks over 50 ms so far (Long Tasks API), and when they were read (ms
   * after navigation start): what Total Blocking Time is computed from. Absent where the browser
   * has no Long Tasks API, and in samples stored by earlier captures.
   */
  longTasks?: { tasks: { startMs: number; durationMs: number }[]; readAtMs: number };
};

export type ResourceTotals = Pick<Extraction["timing"], "bytes" | "requests" | "largestResource">;

/** The part of the page a measurement covers, and the viewport it was laid out for. */
export interface ScanArgs {
  maxY: number;
  viewportWidth: number;
  viewportHeight: number;
}
