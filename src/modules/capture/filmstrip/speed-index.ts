// Speed Index and visually complete from a load's frames, as speedline computes them for
// Lighthouse and WebPageTest defines them (speedline-core 1.4: lib/frame.js, lib/speed-index.js):
//
// - Each frame's colour histogram: 256 bins per R, G and B channel over its pixels, leaving out
//   white ones (all three channels >= 249), so the blank page a load starts from counts as empty.
// - Visual progress of a frame, in whole per cent: for every bin, how far the frame has moved from
//   the first frame towards the last one, min(|frame - first|, |last - first|), summed and divided
//   by the sum of |last - first|. The first frame is a synthetic white one at navigation start
//   (an empty histogram); the last frame is the page as loaded, so it is always 100 %.
// - Progress is not forced to rise: a frame can overshoot the final histogram in one bin and fall
//   back (a loading spinner, a colour that later changes), and it counts as measured.
// - Speed Index = ∫ (1 - progress(t)) dt from navigation start, progress held until the next frame:
//   the first visual change's time, plus each later frame's gap times the unfinished share before it.
// - Visually complete: the first frame whose progress reaches 100 % (even if a later frame drops).
// - Fast mode (Lighthouse's setting): between two frames whose progress differs by less than an
//   allowance that shrinks with the time between them (5 % apart at 0 s, 3 % at 1 s, -1 % far
//   apart), the frames in between take the earlier one's progress without being decoded;
//   otherwise the span is split in half and each half judged the same way.
//
// Pure: frames in (their time and a way to get their pixels' histogram), figures out.

export const CHANNELS = 3;
const BINS = 256;
/** A pixel at or above this in all of R, G and B is white, and left out of the histogram (speedline's isWhitePixel). */
export const WHITE_AT = 249;

/** R, G and B histograms, 256 bins each, one after the other. */
export type Histogram = Uint32Array;

export const emptyHistogram = (): Histogram => new Uint32Array(CHANNELS * BINS);

/** The histogram of RGBA pixels (4 bytes a pixel, alpha ignored), white pixels left out. */
export function histogramOf(rgba: Uint8Array, width: number, height: number): Histogram {
  const h = emptyHistogram();
  const n = Math.min(width * height * 4, rgba.length - (rgba.length % 4));
  for (let i = 0; i < n; i += 4) {
    const r = rgba[i]!;
    const g = rgba[i + 1]!;
    const b = rgba[i + 2]!;
    if (r >= WHITE_AT && g >= WHITE_AT && b >= WHITE_AT) continue;
    h[r]!++;
    h[BINS + g]!++;
    h[2 * BINS + b]!++;
  }
  return h;
}

/** Visual progress of `current` between `initial` and `target`, in whole per cent (speedline's calculateFrameProgress). */
export function frameProgress(current: Histogram, initial: Histogram, target: Histogram): number {
  let total = 0;
  let match = 0;
  for (let i = 0; i < CHANNELS * BINS; i++) {
    const currentDiff = Math.abs(current[i]! - initial[i]!);
    const targetDiff = Math.abs(target[i]! - initial[i]!);
    match += Math.min(currentDiff, targetDiff);
    total += targetDiff;
  }
  if (match === 0 && total === 0) return 100; // every frame alike
  return Math.floor((match / total) * 100);
}

/** How far apart (in per cent) two frames `elapsedMs` apart may be for fast mode to skip the frames between them. */
export function fastModeAllowance(elapsedMs: number): number {
  const max = 5;
  const median = 3;
  const min = -1;
  const coefficient = Math.log((median - min) / (max - min));
  return (max - min) * Math.exp(coefficient * (elapsedMs / 1000)) + min;
}

/** A frame of the load: its time after navigation start and, computed only when asked, its histogram. */
export interface LoadFrame {
  ms: number;
  histogram: () => Histogram;
}

export interface FrameProgress {
  ms: number;
  /** Whole per cent, 0..100 (can fall between frames). */
  progress: number;
  /** Taken over from an earlier frame by fast mode, not computed from this frame's pixels. */
  interpolated: boolean;
}

/**
 * Each frame's visual progress, a synthetic white frame at 0 ms first (speedline's
 * synthesizeWhiteFrame); `frames` in time order, consecutive identical frames already merged.
 */
export function visualProgress(frames: readonly LoadFrame[], opts: { fastMode?: boolean } = {}): FrameProgress[] {
  const all: LoadFrame[] = [{ ms: 0, histogram: emptyHistogram }, ...frames];
  const initial = emptyHistogram();
  const target = all.at(-1)!.histogram();
  const out: (FrameProgress | undefined)[] = Array.from({ length: all.length }, () => undefined);
  const computed = (i: number) => (out[i]?.interpolated === false ? out[i]!.progress : frameProgress(all[i]!.histogram(), initial, target));
  const set = (i: number, progress: number, interpolated: boolean) => void (out[i] = { ms: all[i]!.ms, progress, interpolated });
  if (!opts.fastMode) {
    all.forEach((_, i) => set(i, computed(i), false));
    return out as FrameProgress[];
  }
  const between = (lower: number, upper: number) => {
    const lo = computed(lower);
    const hi = computed(upper);
    set(lower, lo, false);
    set(upper, hi, false);
    if (Math.abs(lo - hi) < fastModeAllowance(all[upper]!.ms - all[lower]!.ms)) {
      for (let i = lower + 1; i < upper; i++) set(i, lo, true);
    } else if (upper - lower > 1) {
      const mid = Math.floor((lower + upper) / 2);
      between(lower, mid);
      between(mid, upper);
    }
  };
  between(0, all.length - 1);
  return out as FrameProgress[];
}

export interface SpeedIndexFigures {
  speedIndexMs: number;
  /** The first frame whose progress reached 100 %. */
  visuallyCompleteMs: number;
  /** The first frame with any progress. */
  firstVisualChangeMs: number;
}

/**
 * Speed Index, visually complete and the first visual change from frames' progress (speedline's
 * calculateSpeedIndexes), times in ms after navigation start; null without frames. Progress is in
 * whole per cent; frames in time order, the first at navigation start.
 */
export function speedIndexOf(frames: readonly { ms: number; progress: number }[]): SpeedIndexFigures | null {
  if (frames.length === 0) return null;
  const start = frames[0]!.ms;
  const first = frames.find((f) => f.progress > 0) ?? frames[0]!;
  const complete = frames.find((f) => f.progress >= 100) ?? frames.at(-1)!;
  let speedIndex = first.ms - start;
  let prevMs = frames[0]!.ms;
  let prevProgress = frames[0]!.progress / 100;
  for (const f of frames) {
    if (f.ms > first.ms) speedIndex += (f.ms - prevMs) * (1 - prevProgress);
    prevMs = f.ms;
    prevProgress = f.progress / 100;
  }
  return { speedIndexMs: speedIndex, visuallyCompleteMs: complete.ms - start, firstVisualChangeMs: first.ms - start };
}
