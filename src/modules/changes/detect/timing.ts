// `timing` changes, reported only when a value leaves the noise measured across the target's own
// history. Load times jitter from run to run (network, CPU contention, caches), so a fixed
// threshold is either blind or noisy; instead each metric gets a robust spread:
//   centre = median of the past samples, spread = 1.4826 × MAD (median absolute deviation;
//   the factor makes it comparable to a standard deviation for normal noise, while one odd slow
//   run cannot inflate it the way it inflates a standard deviation).
// A value is outside the noise when |value − median| > max(K × spread, relative floor × median,
// absolute floor), with K = 4, and beyond every value of those past samples (a level the page has
// already shown is not new). The absolute floors (half a second for paints, a second for load)
// keep a busy host's hiccups out; a smaller move is not one a visitor would notice. Fewer than
// MIN_SAMPLES past samples: no estimate of the noise, so no timing change is claimed at all. And a
// change must hold for two runs (see timingChanges()).

import { bytes as fmtBytes, ms } from "#server/modules/analysis/public";
import type { Extraction } from "#server/modules/capture/model";
import type { DetectedChange as Change, Severity } from "../model";

/** Speed Index and TBT are absent from captures made before they were measured: such runs are not samples of them. */
export type TimingSample = Pick<
  Extraction["timing"],
  "ttfbMs" | "fcpMs" | "lcpMs" | "speedIndexMs" | "tbtMs" | "loadMs" | "cls" | "bytes" | "requests"
>;

export const MIN_SAMPLES = 4;
const K = 4;
const MAD_TO_SIGMA = 1.4826;

interface Metric {
  key: keyof TimingSample;
  label: string;
  fmt: (v: number) => string;
  relFloor: number;
  absFloor: number;
  /** How a rise reads, and a fall. */
  up: string;
  down: string;
}

const METRICS: Metric[] = [
  { key: "ttfbMs", label: "Server response (TTFB)", fmt: ms, relFloor: 0.5, absFloor: 300, up: "slower", down: "faster" },
  { key: "fcpMs", label: "First contentful paint", fmt: ms, relFloor: 0.25, absFloor: 500, up: "slower", down: "faster" },
  { key: "lcpMs", label: "Largest contentful paint", fmt: ms, relFloor: 0.25, absFloor: 500, up: "slower", down: "faster" },
  { key: "speedIndexMs", label: "Speed Index", fmt: ms, relFloor: 0.25, absFloor: 500, up: "slower", down: "faster" },
  // Often 0 on a quiet page, where the band is its floor: 200 ms more of blocked input is what a visitor notices.
  { key: "tbtMs", label: "Total Blocking Time", fmt: ms, relFloor: 0.5, absFloor: 200, up: "more blocking", down: "less blocking" },
  { key: "loadMs", label: "Load", fmt: ms, relFloor: 0.25, absFloor: 1000, up: "slower", down: "faster" },
  {
    key: "cls",
    label: "Layout shift (CLS)",
    fmt: (v) => v.toFixed(2),
    relFloor: 0.5,
    absFloor: 0.05,
    up: "more shifting",
    down: "less shifting",
  },
  { key: "bytes", label: "Page weight", fmt: fmtBytes, relFloor: 0.1, absFloor: 20 * 1024, up: "heavier", down: "lighter" },
  { key: "requests", label: "Requests", fmt: (v) => String(Math.round(v)), relFloor: 0.1, absFloor: 3, up: "more", down: "fewer" },
];

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median and 1.4826 × MAD of the samples. */
export function robustSpread(xs: number[]): { median: number; spread: number } {
  const m = median(xs);
  return { median: m, spread: MAD_TO_SIGMA * median(xs.map((x) => Math.abs(x - m))) };
}

/** The noise band of one metric over a target's past samples: a value this far from the median is outside it. */
export function timingBand(key: keyof TimingSample, past: number[]): { median: number; spread: number; limit: number } {
  const m = METRICS.find((x) => x.key === key)!;
  const { median: centre, spread } = robustSpread(past);
  return { median: centre, spread, limit: Math.max(K * spread, m.relFloor * centre, m.absFloor) };
}

/**
 * `history`: this target's earlier samples at this viewport, oldest first, ending with the `before`
 * capture (the last 20 or so are plenty); `after`: the new capture.
 *
 * A new level has to hold for two runs in a row: `after` and the run before it must both be outside
 * the band of the runs before them, in the same direction, and the run before those inside it. A
 * single slow capture (a busy capture host, a network blip) is never reported, and a lasting change
 * is reported once, on the run that confirms it, not again on every run after.
 */
export function timingChanges(history: TimingSample[], after: Extraction): Change[] {
  const out: Change[] = [];
  for (const m of METRICS) {
    const now = after.timing[m.key];
    const prev = history.at(-1)?.[m.key];
    if (typeof now !== "number" || !Number.isFinite(now) || typeof prev !== "number" || !Number.isFinite(prev)) continue;
    const earlier = history.slice(0, -1).map((h) => h[m.key]);
    const past = earlier.filter((x): x is number => typeof x === "number" && Number.isFinite(x));
    if (past.length < MIN_SAMPLES) continue;
    const { median: centre, limit } = timingBand(m.key, past);
    const lo = Math.min(...past);
    const hi = Math.max(...past);
    const side = (v: number) => (v - centre > limit ? 1 : centre - v > limit ? -1 : 0);
    // A level the page already showed in its recent history is not new: a metric with two modes
    // (a late web font making LCP either the first paint or the swap) has a small MAD around its
    // usual mode, and its other mode would otherwise read as a change.
    const fresh = (v: number) => {
      const d = side(v);
      return (d > 0 && v > hi) || (d < 0 && v < lo) ? d : 0;
    };
    const direction = fresh(now);
    if (direction === 0 || fresh(prev) !== direction) continue;
    const beforePrev = earlier.at(-1);
    if (typeof beforePrev === "number" && Number.isFinite(beforePrev) && side(beforePrev) === direction) continue; // already reported
    const factor = centre > 0 ? now / centre : Infinity;
    const worse = direction > 0;
    const severity: Severity = !worse ? "low" : factor >= 2 ? "high" : factor >= 1.5 ? "medium" : "low";
    const usual = `${m.fmt(lo)}–${m.fmt(hi)} over ${past.length} runs`;
    out.push({
      kind: "timing",
      severity,
      viewport: after.viewport,
      summary: `${m.label} ${m.fmt(centre)} → ${m.fmt(now)} (${worse ? m.up : m.down} in the last 2 runs; usual ${usual})`,
      before: m.fmt(centre),
      after: m.fmt(now),
      evidence: { usual },
    });
  }
  return out;
}
