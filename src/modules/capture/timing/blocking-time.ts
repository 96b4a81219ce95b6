// Total Blocking Time as Lighthouse computes it (trace_engine lantern/metrics/TBTUtils.js,
// calculateSumOfBlockingTime): every main-thread task longer than 50 ms blocks input for its time
// beyond 50 ms; a task that straddles either end of the window counts only for its part inside,
// and that part must itself exceed 50 ms. Lighthouse's window is FCP to Time to Interactive; ours
// ends where the capture reads the vitals (the load's quiet point, see settle-page.ts): `load` has
// fired and the first paint and the images in view have been painted, the moment before the
// capture's own scrolling starts. Pure: tasks in, milliseconds out.

export const BLOCKING_THRESHOLD_MS = 50;

/** One main-thread task as the Long Tasks API reports it: start after navigation start, and duration, in ms. */
export interface LongTask {
  startMs: number;
  durationMs: number;
}

/** Sum over the tasks of (the part of the task inside [fromMs, toMs]) - 50 ms, for parts longer than 50 ms. */
export function totalBlockingTime(tasks: readonly LongTask[], fromMs: number, toMs: number): number {
  if (!(toMs > fromMs)) return 0;
  let sum = 0;
  for (const t of tasks) {
    if (!(t.durationMs >= BLOCKING_THRESHOLD_MS)) continue;
    const end = t.startMs + t.durationMs;
    if (end < fromMs || t.startMs > toMs) continue;
    const clipped = Math.min(end, toMs) - Math.max(t.startMs, fromMs);
    if (clipped < BLOCKING_THRESHOLD_MS) continue;
    sum += clipped - BLOCKING_THRESHOLD_MS;
  }
  return sum;
}
