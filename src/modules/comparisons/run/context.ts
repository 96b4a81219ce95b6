// What one run carries from state to state. The table decides what may happen; this is what has
// happened so far. A run row (run history) keys on runId; trigger says who asked for it.
import type { ConsentPolicy, Extraction, Finding, Snapshot, Viewport } from "#server/modules/capture/model";
import type { GrayImage } from "#server/lib/image/image";
import type { EarlierSample, TimingSummary } from "#server/modules/capture/public";
import { DEFAULT_CONSENT_POLICY } from "#server/modules/capture/model";
import type { ComparisonProgress, RunTrigger } from "../model";
import type { DiffRow, FindingRow, TargetRow } from "../repository";
import type { RunEventType } from "./table";

export const RUN_VIEWPORTS: Viewport[] = ["desktop", "mobile"];
export const INTERRUPTED_REASON = "Interrupted by a server restart — start the analysis again";
export const QUEUED_STAGE = "Waiting for a capture slot";
/** Pages in a run: every target at every viewport. */
export const pagesInRun = (targets: number) => targets * RUN_VIEWPORTS.length;

export type { RunTrigger };

/** One page of the run: a target (by its index in `targets`) at a viewport. */
export interface PageKey {
  target: number;
  viewport: Viewport;
}
export type PageOutcome = Snapshot | { reason: string };
export const isCaptured = (o: PageOutcome | undefined): o is Snapshot => o !== undefined && !("reason" in o);

/** A captured page: its screenshot hashed and placed on disk, with its extraction, before its snapshot row is written. */
export interface Capture {
  snapshotId: string;
  relPath: string;
  absolute: string;
  width: number;
  height: number;
  /** Of the PNG's bytes: the file is stored under this name (see files.adopt). */
  sha256: string;
  bytes: number;
  extraction: Extraction;
  thumb?: GrayImage;
  earlierSamples?: EarlierSample[];
}

export interface ViewportScoring {
  /** Captured pages at this viewport, paired in target order; scored one after another. */
  pairs: (readonly [Snapshot, Snapshot])[];
  next: number;
  diffs: DiffRow[];
  /** Every pair has reported (viewportScored was taken). */
  done: boolean;
}

/** A viewport's extra timing loads, asked for once its every page is in (transitions/timing.ts). */
export interface ViewportTiming {
  pending: number;
  /** Every page that needed more loads has reported. */
  done: boolean;
}

export interface RunOutcome {
  status: "completed" | "failed";
  error: string | null;
  /** The database took it: false when the comparison had stopped running (deleted, or recovered by another process) or the write failed. */
  recorded: boolean;
}

export interface RunContext {
  readonly runId: string;
  readonly trigger: RunTrigger;
  readonly ownerId: string;
  readonly comparisonId: string;
  readonly name: string;
  /** What the run's captures do about a consent banner (the comparison's setting when the run started). */
  readonly consent: ConsentPolicy;
  /** In createdAt order: pairs and findings follow it. */
  readonly targets: readonly TargetRow[];
  progress: ComparisonProgress;
  /** Each page's outcome once known, by viewport then target index. */
  readonly pages: Record<Viewport, (PageOutcome | undefined)[]>;
  readonly scoring: Record<Viewport, ViewportScoring>;
  readonly timing: Record<Viewport, ViewportTiming>;
  findings: FindingRow[];
  /** Why a crashed run failed, while that is being recorded. */
  failure: string | null;
  failureAttempts: number;
  outcome: RunOutcome | null;
}

export interface RunStart {
  ownerId: string;
  comparisonId: string;
  name: string;
  /** Given by the caller when it keeps a run row; otherwise made here. */
  runId?: string;
  trigger?: RunTrigger;
  /** Default: DEFAULT_CONSENT_POLICY. */
  consent?: ConsentPolicy;
}

export function newRunContext(
  start: RunStart & { runId: string },
  targets: readonly TargetRow[],
  progress: ComparisonProgress,
): RunContext {
  const perViewport = <T>(make: () => T) => Object.fromEntries(RUN_VIEWPORTS.map((v) => [v, make()])) as Record<Viewport, T>;
  return {
    runId: start.runId,
    trigger: start.trigger ?? "manual",
    ownerId: start.ownerId,
    comparisonId: start.comparisonId,
    name: start.name,
    consent: start.consent ?? DEFAULT_CONSENT_POLICY,
    targets,
    progress,
    pages: perViewport(() => targets.map(() => undefined)),
    scoring: perViewport(() => ({ pairs: [], next: 0, diffs: [], done: false })),
    timing: perViewport(() => ({ pending: 0, done: false })),
    findings: [],
    failure: null,
    failureAttempts: 0,
    outcome: null,
  };
}

/** The run's snapshots in target order, each target's viewports in RUN_VIEWPORTS order. */
export const snapshotsOf = (run: RunContext): Snapshot[] =>
  run.targets.flatMap((_, i) =>
    RUN_VIEWPORTS.flatMap((v) => {
      const o = run.pages[v][i];
      return isCaptured(o) ? [o] : [];
    }),
  );

/** All diffs, viewport by viewport in RUN_VIEWPORTS order. */
export const allDiffs = (run: RunContext): DiffRow[] => RUN_VIEWPORTS.flatMap((v) => run.scoring[v].diffs);

export type RunEvent =
  | { type: "launch" }
  | { type: "recover" }
  | { type: "stage"; text: string }
  | { type: "pageCaptured"; page: PageKey; capture: Capture }
  | { type: "pageFailed"; page: PageKey; reason: string }
  | { type: "pageTimedOut"; page: PageKey }
  | { type: "allCaptured" }
  | { type: "pairScored"; viewport: Viewport; diff: DiffRow }
  | { type: "pairFailed"; viewport: Viewport; pair: string; error: unknown }
  | { type: "viewportScored"; viewport: Viewport }
  /** timing: the page's timing over all its loads; null when the extra loads failed (its first load stands). */
  | { type: "pageTimed"; page: PageKey; timing: TimingSummary | null }
  | { type: "allScored" }
  | { type: "found"; findings: Finding[] }
  | { type: "findingsFailed"; error: unknown }
  | { type: "cancel" }
  | { type: "interrupt" }
  | { type: "crash"; error: unknown }
  | { type: "settleAttempt" }
  | { type: "drained" };
export type EventOf<T extends RunEvent["type"]> = Extract<RunEvent, { type: T }>;

// The table's event names and these payloads must be the same set: a mismatch fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type EventsMatchTable = Assert<Same<RunEvent["type"], RunEventType>>;
type Assert<T extends true> = T;
