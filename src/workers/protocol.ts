// The typed messages between the main thread and the workers. Each worker kind has a request
// union (main -> worker) and an event union (worker -> main); nothing else crosses the boundary.

import type { Extraction, Viewport } from "../modules/capture/model";

// ---- capture worker -------------------------------------------------------------------------
export interface CaptureJob {
  jobId: string;
  url: string;
  viewport: Viewport;
  /** Absolute path where the worker writes the full-page PNG. */
  screenshotPath: string;
  allowPrivate: boolean;
  navigationTimeoutMs: number;
  totalTimeoutMs: number;
  maxHeightPx: number;
}

export type CaptureRequest =
  | { type: "capture"; job: CaptureJob }
  | { type: "shutdown" };

export type CaptureEvent =
  | { type: "ready"; browser: string }
  | { type: "stage"; jobId: string; stage: "navigating" | "settling" | "measuring" | "screenshot" }
  | { type: "done"; jobId: string; extraction: Extraction; screenshotPath: string }
  | { type: "failed"; jobId: string; reason: string }
  | { type: "fatal"; reason: string };
