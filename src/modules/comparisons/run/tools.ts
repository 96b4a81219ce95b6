// The functions a run calls out to: capture, time, analyser, findings, publish, activity. The app
// builds them once at boot (createRunTools); tests hand in fakes.
import type { Audience, LiveMessage } from "#server/live/hub";
import type { GrayImage } from "#server/lib/image/image";
import type { CaptureJobInput, CaptureResult as PoolResult, TimingJobInput, TimingResult } from "#server/modules/capture/public";
import type { Extraction, Finding, PaletteEntry, SimilarityScores, Snapshot } from "#server/modules/capture/model";

// What a capture is asked and answers is the capture module's; a run passes it through.
export type { CaptureJobInput, TimingJobInput, TimingResult };

/** A screenshot its capture tool already stored under its content key (files.ts contentKey): a capture job's worker did. */
export interface StoredScreenshot {
  key: string;
  sha256: string;
  bytes: number;
  width: number;
  height: number;
}

/** The pool's answer; with `stored`, its screenshot is in the store already and not at `screenshotPath`. */
export type CaptureResult = PoolResult & { stored?: StoredScreenshot };

/** Matches CapturePool.submit. */
export type CaptureFn = (ownerId: string, job: CaptureJobInput, onStage?: (stage: string) => void) => Promise<CaptureResult>;
/**
 * A run's shared logins (the capture module's StepSessions): pages of one site whose steps start
 * with the same login run it once per run, the others start from its session. One a run.
 */
export interface RunSessions {
  capture(input: CaptureJobInput, submit: (input: CaptureJobInput) => Promise<CaptureResult>): Promise<CaptureResult>;
}

/** Matches CapturePool.submitTiming. */
export type TimeFn = (ownerId: string, job: TimingJobInput) => Promise<TimingResult>;

export interface PairScores extends SimilarityScores {
  components: Record<string, number>;
}
export interface Analyser {
  scorePair(aPath: string, a: Extraction, bPath: string, b: Extraction): PairScores | Promise<PairScores>;
  /** Hands over a stored screenshot's thumbnail made at capture time, so scoring needn't decode it. */
  prime?(path: string, thumb: GrayImage, palette: PaletteEntry[]): void;
  /** Pairs of one lane it may be given at once (one when absent). */
  readonly concurrency?: number;
}

export type FindingsFn = (pages: Snapshot[]) => Finding[] | Promise<Finding[]>;

/** An activity-feed entry (type 'comparison'); the activity module stores it. */
export interface ComparisonActivity {
  type: "comparison";
  userId: string;
  message: string;
  details: string | null;
  status: "success" | "error" | "warning" | "info";
  metadata: Record<string, unknown>;
}

/** What a run calls out to. Without `capture` no run starts; without another part the run skips its step. */
export interface RunTools {
  capture?: CaptureFn;
  /** A run's shared logins, made once a run (createStepSessions); without it each page runs its own steps. */
  stepSessions?: () => RunSessions;
  /** More timing loads of a captured page; without it every capture times its page on its own. */
  time?: TimeFn;
  analyser?: Analyser;
  findingsFor?: FindingsFn;
  publish?: (message: LiveMessage, to: Audience) => unknown;
  recordActivity?: (entry: ComparisonActivity) => unknown;
  /** Backstops in case a worker never answers; the pool has its own, shorter limits. */
  captureTimeoutMs?: number;
  scoreTimeoutMs?: number;
}

/** Where a run's live messages and activity entries go unless the caller wired its own. */
export type RunReporting = Required<Pick<RunTools, "publish" | "recordActivity">>;

/**
 * Everything a run needs, built once at boot from the caller's parts (capture, timing, analyser,
 * findings step, timeouts) and the app's reporting; a publish or recordActivity the caller gave
 * wins, so a test can record what runs report. Runs read the returned object at each step: a test
 * swaps a part on it after the app is built.
 */
export function createRunTools(parts: RunTools, reporting: RunReporting): RunTools {
  return {
    ...parts,
    publish: parts.publish ?? reporting.publish,
    recordActivity: parts.recordActivity ?? reporting.recordActivity,
  };
}
