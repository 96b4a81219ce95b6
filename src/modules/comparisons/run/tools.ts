// The functions a run calls out to: capture, time, analyser, findings, publish, activity. The app
// builds them once at boot (createRunTools); tests hand in fakes.
import type { Audience, LiveMessage } from "#server/live/hub";
import type { GrayImage } from "#server/lib/image/image";
import type { EarlierSample, TimingProfile, TimingSummary, Vitals } from "#server/modules/capture/public";
import type { Extraction, Finding, PaletteEntry, SimilarityScores, Snapshot, Viewport } from "#server/modules/capture/model";

export type CaptureResult = { ok: true; extraction: Extraction; screenshotPath: string; thumb?: GrayImage } | { ok: false; reason: string };
export interface CaptureJobInput {
  url: string;
  viewport: Viewport;
  /** Absolute path the PNG must be written to. */
  screenshotPath: string;
  /** The page's timing samples from its owner's recent captures, newest first (run/effects/earlier-samples.ts). */
  earlierSamples?: EarlierSample[];
  /** Time the page with its own load only; the run asks `time` for more loads where a finding could need them. */
  deferTiming?: boolean;
}
/** Matches CapturePool.submit. */
export type CaptureFn = (ownerId: string, job: CaptureJobInput, onStage?: (stage: string) => void) => Promise<CaptureResult>;

export interface TimingJobInput {
  url: string;
  viewport: Viewport;
  profile: TimingProfile;
  /** The capture's own loads. */
  own: Vitals[];
  earlier: EarlierSample[];
}
export type TimingResult = { ok: true; timing: TimingSummary } | { ok: false; reason: string };
/** Matches CapturePool.submitTiming. */
export type TimeFn = (ownerId: string, job: TimingJobInput) => Promise<TimingResult>;

export interface PairScores extends SimilarityScores {
  components: Record<string, number>;
}
export interface Analyser {
  scorePair(aPath: string, a: Extraction, bPath: string, b: Extraction): PairScores | Promise<PairScores>;
  /** Hands over a stored screenshot's thumbnail made at capture time, so scoring needn't decode it. */
  prime?(path: string, thumb: GrayImage, palette: PaletteEntry[]): void;
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
