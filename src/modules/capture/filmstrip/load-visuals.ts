// Speed Index and visually complete of one recorded load, from its JPEG frames (speed-index.ts
// does the arithmetic): every frame the recording gave from navigation start to the cut, before
// the filmstrip keeps one a slot, so a paint is timed to the frame that showed it, not to its slot.
// Frames are decoded only as fast mode needs them, and each at most once.
import { decode } from "jpeg-js";
import { histogramOf, speedIndexOf, visualProgress, type Histogram, type LoadFrame } from "./speed-index";

/** Where the frames came from: the trace's compositor screenshots, or the DevTools screencast's repaints (the last of each 100 ms). */
export type FrameSourceKind = "trace" | "screencast";

/** The figures, with how they were measured, or null with the reason. */
export interface LoadVisuals {
  speedIndexMs: number | null;
  visuallyCompleteMs: number | null;
  method: string | null;
  reason: string | null;
}

export const notMeasured = (reason: string): LoadVisuals => ({ speedIndexMs: null, visuallyCompleteMs: null, method: null, reason });

const SOURCE_TEXT: Record<FrameSourceKind, string> = {
  trace: "trace screenshots (the compositor's frames, as Lighthouse records them)",
  screencast: "DevTools screencast frames (the last of each 100 ms; the browser's trace was recording another page)",
};

/**
 * The load's visual figures from its frames (`ms` after navigation start, JPEG data), in time
 * order and all within the load; consecutive identical frames count once (as speedline drops them).
 */
export function measureLoadVisuals(frames: readonly { ms: number; data: Buffer }[], kind: FrameSourceKind): LoadVisuals {
  const distinct = frames.filter((f, i) => f.ms >= 0 && (i === 0 || !f.data.equals(frames[i - 1]!.data)));
  if (distinct.length === 0) return notMeasured("No frame of the load was recorded");
  let undecodable = false;
  const load: LoadFrame[] = distinct.map((f) => {
    let histogram: Histogram | null = null;
    return {
      ms: f.ms,
      histogram: () => {
        if (histogram) return histogram;
        try {
          const img = decode(f.data, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 20, maxMemoryUsageInMB: 128 });
          histogram = histogramOf(img.data, img.width, img.height);
        } catch {
          undecodable = true;
          histogram = new Uint32Array(3 * 256);
        }
        return histogram;
      },
    };
  });
  const progress = visualProgress(load, { fastMode: true });
  if (undecodable) return notMeasured("A frame of the load's filmstrip could not be decoded");
  const figures = speedIndexOf(progress);
  if (!figures) return notMeasured("No frame of the load was recorded");
  // Lighthouse reports no Speed Index for a load that never showed anything but white (SPEEDINDEX_OF_ZERO).
  if (figures.speedIndexMs <= 0) return notMeasured("The load showed nothing but a white page until the capture measured it");
  return {
    speedIndexMs: Math.round(figures.speedIndexMs),
    visuallyCompleteMs: Math.round(figures.visuallyCompleteMs),
    method: `Filmstrip of the capture's own load: ${distinct.length} ${SOURCE_TEXT[kind]}, visual progress from colour histograms against the last frame before the capture scrolled (speedline's method, fast mode, as Lighthouse)`,
    reason: null,
  };
}
