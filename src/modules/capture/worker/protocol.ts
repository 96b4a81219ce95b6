// The typed messages between the capture pool (main thread) and its workers: the request union
// (main -> worker) and the event union (worker -> main); nothing else crosses the boundary.

import type { GrayImage } from "#server/lib/image/image";
import type { EgressListen } from "../browser/egress-proxy";
import type { ColorScheme, ConsentPolicy, Viewport, Extraction } from "../model";
import type { Vitals } from "../page/types";
import type { SessionState, Step, StepFailure, StepSession } from "../steps/model";
import type { EarlierSample, TimingProfile, TimingSummary } from "../timing/timing-samples";

export interface CaptureJob {
  jobId: string;
  url: string;
  viewport: Viewport;
  /** The page's `prefers-color-scheme` (the browser context's colorScheme); absent: light. */
  colorScheme?: ColorScheme;
  /** Absolute path where the worker writes the full-page PNG. */
  screenshotPath: string;
  allowPrivate: boolean;
  navigationTimeoutMs: number;
  totalTimeoutMs: number;
  maxHeightPx: number;
  /** Loads the page's timing is taken from, at most (1: the capture's own load only); default 3. */
  timingSamples?: number;
  /** How the mobile viewport is timed (capture/timing/timing-samples.ts); default "unthrottled". */
  mobileTimingProfile?: "unthrottled" | "lighthouse-mobile";
  /** Loads of the same page measured by recent captures, newest first (capture/timing/timing-samples.ts). */
  earlierSamples?: EarlierSample[];
  /**
   * Time the page with its own load only: the run decides which pages get more loads once every
   * site's first load is in, and asks for them as TimingJobs. A throttled mobile profile ignores it.
   */
  deferTiming?: boolean;
  /** What to do about a consent banner (capture/consent/); absent: nothing is done or looked for. */
  consent?: ConsentPolicy;
  /** Steps taken on the page before it settles and is measured (capture/steps/); the timing is then the page's own load only. */
  steps?: Step[];
  /** The values of the secrets the steps name, by name. Never logged; masked out of every error and the extraction. */
  secrets?: Record<string, string>;
  /** The origin secrets may be typed into and gotos stay on; default the URL's. */
  siteOrigin?: string;
  /** A login another capture of the run did: start from its session, skip its steps. */
  session?: StepSession;
  /** Hand back the session the login steps left (the first capture of a site's login). */
  keepSession?: boolean;
}

/** More timing loads of a page already captured (capture/timing/time-page.ts). */
export interface TimingJob {
  jobId: string;
  url: string;
  viewport: Viewport;
  allowPrivate: boolean;
  profile: TimingProfile;
  /** The capture's own loads so far. */
  own: Vitals[];
  earlier: EarlierSample[];
  /** Loads wanted at most, own ones included. */
  max: number;
  totalTimeoutMs: number;
  /** The capture's colour scheme, so every load of a page is in the same one; absent: light. */
  colorScheme?: ColorScheme;
}

export type CaptureRequest =
  | { type: "init"; chromiumPath: string }
  /** A remote browser instead of a launched one: a Playwright browser server, and where this worker's egress proxy listens for it. */
  | { type: "connect"; endpoint: string; egress: EgressListen }
  | { type: "capture"; job: CaptureJob }
  | { type: "time"; job: TimingJob }
  | { type: "shutdown" };

/** The steps a capture reports while it runs (capture.ts). */
export type CaptureStage = "navigating" | "steps" | "settling" | "measuring" | "screenshot";

export type CaptureEvent =
  /** pid is the browser's main process (null where it can't be found), so a stuck browser can be killed. */
  | { type: "ready"; browser: string; pid: number | null }
  | { type: "stage"; jobId: string; stage: CaptureStage }
  /** thumb: the grey thumbnail scoring compares, made while the screenshot was decoded anyway. */
  | { type: "done"; jobId: string; extraction: Extraction; screenshotPath: string; thumb: GrayImage; session?: SessionState }
  /** A step could not be done: which and why, and the viewport where it stopped (null: no screenshot). */
  | { type: "stepFailed"; jobId: string; step: StepFailure; screenshotPath: string | null; session?: SessionState }
  | { type: "timed"; jobId: string; timing: TimingSummary }
  /** lost: the remote browser went away under the job (not the page's failure): the pool sends it elsewhere. */
  | { type: "failed"; jobId: string; reason: string; lost?: true }
  | { type: "fatal"; reason: string }
  /** The remote browser could not be reached, or its connection closed; sent once, and the worker is done. */
  | { type: "lost"; reason: string };
