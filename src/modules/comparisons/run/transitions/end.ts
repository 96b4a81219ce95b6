// Moves that end a run: completing it, failing a crashed one (retried while the disk is full),
// shutdown and boot recovery, and the clean-up of a deleted comparison's folder.
import { isStorageError, storageMessageOf } from "#server/http/storage-errors";
import { nowIso } from "#server/lib/ids";
import { INTERRUPTED_REASON, allDiffs, type RunContext } from "../context";
import { recordActivity, send, type RunIO } from "../io";
import { capturedTargets } from "./capture";
import { findingRows } from "./score";
import { settle, settleInterrupted } from "./settle";
import type { Transition } from "./types";

const CRASH_REASON = "Something went wrong during the analysis — start it again";

export const settleCompleted: Transition<"found"> = async (run, { findings }, io) => {
  const diffs = allDiffs(run);
  run.findings = findingRows(run, findings, nowIso(io.deps.now()));
  if (!(await settle(io, run, "completed", null, diffs, run.findings))) return;
  const captured = capturedTargets(run);
  const targets = run.targets.length;
  recordActivity(io, {
    userId: run.ownerId,
    message: `Comparison "${run.name}" completed`,
    details: `${captured} of ${targets} websites captured, ${diffs.length} pairs scored, ${run.findings.length} findings`,
    status: captured === targets ? "success" : "warning",
    metadata: { comparisonId: run.comparisonId, captured, targets, diffs: diffs.length, findings: run.findings.length },
  });
  const hook = io.deps.onCompleted;
  if (hook)
    io.spawn(async () => {
      try {
        await hook(run);
      } catch (e) {
        io.deps.log(`after-completion work for comparison ${run.comparisonId} failed`, e);
      }
    });
};

export const settleWithoutFindings: Transition<"findingsFailed"> = (run, { error }, io) => {
  io.deps.log("findings failed", error);
  return settleCompleted(run, { type: "found", findings: [] }, io);
};

/** Shutdown: ends the run now with the restart reason; otherwise it would fail on the pool's "shutting down" answers and blame the websites. */
export const failInterrupted: Transition<"interrupt"> = async (run, _event, io) => {
  if (!(await recordInterruption(run, io))) return;
  send(io, run, "COMPARISON_STATUS", {
    comparisonId: run.comparisonId,
    status: "failed",
    progress: { ...run.progress, stage: "Failed" },
  });
};

/**
 * Boot: a comparison left 'running' lost its run in a crash or restart. It is failed with a reason
 * rather than resumed: a page that crashed the server would otherwise crash it again on every boot.
 */
export const failRecovered: Transition<"recover"> = async (run, event, io) => {
  await recordInterruption(run, io, event.reason);
};

async function recordInterruption(run: RunContext, io: RunIO, reason = INTERRUPTED_REASON): Promise<boolean> {
  try {
    return await settleInterrupted(io, run, reason);
  } catch (e) {
    // The disk may be full; boot recovery fails the run with the same reason next time.
    io.deps.log(`could not mark comparison ${run.comparisonId} interrupted`, e);
    run.outcome = { status: "failed", error: reason, recorded: false };
    return false;
  }
}

export const beginFailing: Transition<"crash"> = (run, { error }, io) => {
  run.failure = isStorageError(error) ? storageMessageOf(error) : CRASH_REASON;
  io.raise({ type: "settleAttempt" });
};

/**
 * Records a crashed run's failure. When the disk is full that write fails too, so it is retried
 * until space returns (or the comparison is deleted): otherwise it would stay 'running' until a restart.
 */
export const attemptFailure: Transition<"settleAttempt"> = async (run, _event, io) => {
  const reason = run.failure ?? CRASH_REASON;
  try {
    await settle(io, run, "failed", reason, [], []);
    return "failed";
  } catch (e) {
    if (!isStorageError(e)) {
      io.deps.log(`could not mark comparison ${run.comparisonId} failed`, e);
      run.outcome = { status: "failed", error: reason, recorded: false };
      return "failed";
    }
    const wait = Math.min(2_000, 250 * 2 ** run.failureAttempts++);
    io.spawn(async () => {
      await Bun.sleep(wait);
      io.dispatch({ type: "settleAttempt" });
    });
    return "failing";
  }
};

/** Captures still in flight when the comparison was deleted may have recreated its folder. */
export const removeLeftovers: Transition<"drained"> = (run, _event, io) => {
  io.spawn(() => io.deps.files.removeComparison(run.ownerId, run.comparisonId).catch(() => {}));
};
