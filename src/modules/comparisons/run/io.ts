// What a transition function may touch: the run's dependencies, and the machine's three verbs.
// Live messages and activity entries go out through here so a broken socket or feed never ends a run.
import type { SqlDb } from "#server/db/sql";
import { nowIso } from "#server/lib/ids";
import type { ComparisonProgressMessage, TargetStatus } from "../model";
import type { ScreenshotFiles } from "../files";
import type { ComparisonsRepository } from "../repository";
import type { RunContext, RunEvent } from "./context";
import type { ComparisonActivity, RunTools } from "./tools";

export interface RunDeps {
  db: SqlDb;
  repo: ComparisonsRepository;
  files: ScreenshotFiles;
  tools: RunTools;
  now: () => number;
  log: (msg: string, err?: unknown) => void;
  /** Ended runs kept per comparison (HISTORY_KEEP); older ones go with their files. */
  historyKeep?: number;
  /** This process as the runs it starts record it (their driver); none on the embedded server, which is one process. */
  driver?: string;
  /** Called once every page of the run is captured, while it is scored (the watch's page sets; not waited for). */
  onCaptured?: (run: Readonly<RunContext>) => void;
  /** Called once a run's completed results are stored (change detection, alerts); the run closes after it settles. */
  onCompleted?: (run: Readonly<RunContext>) => unknown;
  /**
   * Called once a run has closed (completed, failed, cancelled or interrupted): nothing of it is in
   * flight. Work it returns (a promise) is waited for by `idle()`.
   */
  onClosed?: (run: Readonly<RunContext>) => unknown;
  /**
   * The values of a site's secrets that a page's steps name (`{{secret:name}}`), by name, read
   * as the page's capture starts (the secrets module's, wired in app.ts); a name it does not know
   * is left out, and the step that needs it fails in the capture.
   */
  secretsOf?: (targetId: string, names: readonly string[]) => Record<string, string> | Promise<Record<string, string>>;
}

export interface RunIO {
  readonly deps: RunDeps;
  /** Queue an event for this run, taken right after the current transition. */
  raise(event: RunEvent): void;
  /** Report from async work (effects): the event is taken after those before it, once the transition in progress is done. */
  dispatch(event: RunEvent): void;
  /** Start async work the run waits for before it can close. */
  spawn(work: () => Promise<unknown>): void;
}

type LiveType = "COMPARISON_PROGRESS" | "COMPARISON_STATUS";

export function send(io: RunIO, run: RunContext, type: LiveType, payload: ComparisonProgressMessage) {
  try {
    io.deps.tools.publish?.({ type, payload }, { kind: "workspace", workspaceId: run.ownerId });
  } catch (e) {
    io.deps.log("comparison live publish failed", e);
  }
}

/** An activity entry; one the feed writes asynchronously is the run's work until written (idle() waits for it). */
export function recordActivity(io: RunIO, entry: Omit<ComparisonActivity, "type">) {
  io.spawn(async () => {
    try {
      await io.deps.tools.recordActivity?.({ type: "comparison", ...entry });
    } catch (e) {
      io.deps.log("comparison activity failed", e);
    }
  });
}

export async function setStage(io: RunIO, run: RunContext, stage: string) {
  run.progress = { ...run.progress, stage };
  await io.deps.repo.setProgress(run.comparisonId, run.progress.done, run.progress.total, stage, nowIso(io.deps.now()));
  send(io, run, "COMPARISON_PROGRESS", { comparisonId: run.comparisonId, status: "running", progress: run.progress });
}

export async function setTarget(io: RunIO, run: RunContext, targetId: string, status: TargetStatus, error: string | null) {
  await io.deps.repo.setTargetStatus(targetId, status, error);
  send(io, run, "COMPARISON_STATUS", {
    comparisonId: run.comparisonId,
    status: "running",
    progress: run.progress,
    targetId,
    targetStatus: status,
  });
}

/** Removes a file the run will not keep; a failure only costs disk space, so it is logged. */
export function removeFile(io: RunIO, absolute: string) {
  io.spawn(() => io.deps.files.remove(absolute).catch((e) => io.deps.log("could not remove screenshot", e)));
}
