// The typed messages between the main thread (./pixels.ts) and the pixels worker: change
// detection's pixel diff between two runs.
import type { Box } from "#server/modules/capture/model";
import type { VisualDiff } from "../detect/visual";

/** mask: boxes (CSS px = screenshot px) of parts that move by themselves; not counted as changes. */
export type PixelsRequest = { type: "diff" | "heatmap"; jobId: string; beforePath: string; afterPath: string; mask?: Box[] };
/** A visual diff without its heat-map encoder (a function cannot cross threads). */
export type PixelDiffSummary = Omit<VisualDiff, "heatmap">;
export type PixelsEvent =
  | { type: "diff"; jobId: string; summary: PixelDiffSummary }
  | { type: "heatmap"; jobId: string; png: Uint8Array }
  | { type: "failed"; jobId: string; reason: string };
