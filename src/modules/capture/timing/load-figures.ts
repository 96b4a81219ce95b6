// Speed Index, visually complete and Total Blocking Time for the extraction, each with how it was
// measured or why it was not. They come from the capture's own load only (its filmstrip and the
// long tasks the page script saw), not from the light timing loads, which record neither; so a
// page timed under another profile than that load ran in gets none. Pure.
import type { Extraction } from "../model";
import type { LoadVisuals } from "../filmstrip/load-visuals";
import type { Vitals } from "../page/types";
import { totalBlockingTime } from "./blocking-time";
import type { TimingProfile } from "./timing-samples";

export type LoadFigures = Required<Pick<Extraction["timing"], "speedIndexMs" | "visuallyCompleteMs" | "tbtMs" | "measuredBy">>;

const OTHER_PROFILE =
  "This page is timed under Lighthouse's mobile preset; the filmstrip and long tasks are of the capture's own, unthrottled load";

export function loadFigures(own: Vitals, visuals: LoadVisuals, profile: TimingProfile): LoadFigures {
  if (profile !== "unthrottled") {
    const none = { method: null, reason: OTHER_PROFILE };
    return { speedIndexMs: null, visuallyCompleteMs: null, tbtMs: null, measuredBy: { speedIndex: none, tbt: none } };
  }
  const tbt = blocking(own);
  return {
    speedIndexMs: visuals.speedIndexMs,
    visuallyCompleteMs: visuals.visuallyCompleteMs,
    tbtMs: tbt.value,
    measuredBy: {
      speedIndex: { method: visuals.method, reason: visuals.speedIndexMs === null ? (visuals.reason ?? "Not measured") : null },
      tbt: { method: tbt.method, reason: tbt.reason },
    },
  };
}

function blocking(own: Vitals): { value: number | null; method: string | null; reason: string | null } {
  const seen = own.longTasks;
  if (!seen) return { value: null, method: null, reason: "The browser reported no long tasks (it has no Long Tasks API)" };
  if (own.fcpMs === null)
    return { value: null, method: null, reason: "The load had no first contentful paint, where blocking time starts" };
  if (seen.readAtMs <= own.fcpMs) return { value: 0, method: windowText(own.fcpMs, seen.readAtMs), reason: null };
  return {
    value: Math.round(totalBlockingTime(seen.tasks, own.fcpMs, seen.readAtMs)),
    method: windowText(own.fcpMs, seen.readAtMs),
    reason: null,
  };
}

const windowText = (fcp: number, end: number) =>
  `Long Tasks API on the capture's own load: main-thread tasks over 50 ms from FCP (${fcp} ms) to the load's quiet point, when the vitals are read after load with the first paint and the images in view painted (${end} ms), each counted for its time beyond 50 ms (Lighthouse ends at Time to Interactive)`;
