// Writing a run's outcome. Only a comparison still running takes it: one deleted, or failed by
// boot recovery in another process, keeps its state, and the run learns that from `recorded`.
import { nowIso } from "#server/lib/ids";
import type { DiffRow, FindingRow } from "../../repository";
import { INTERRUPTED_REASON, type RunContext } from "../context";
import { recordActivity, send, type RunIO } from "../io";
import { DEFAULT_HISTORY_KEEP, pruneRuns } from "../retention";

/** Ends the comparison with this status and these results; true when the database took it. */
export async function settle(
  io: RunIO,
  run: RunContext,
  status: "completed" | "failed",
  error: string | null,
  diffs: DiffRow[],
  found: FindingRow[],
): Promise<boolean> {
  const { db, repo, now } = io.deps;
  const stage = status === "completed" ? "Completed" : "Failed";
  const at = nowIso(now());
  const recorded = await db.tx(async () => {
    if (!(await repo.finish(run.comparisonId, status, error, stage, at))) return false;
    if (error) await repo.failUnfinishedTargets(run.comparisonId, error);
    await repo.finishRun(run.runId, status, error, at);
    await repo.insertResults(diffs, found);
    return true;
  });
  run.outcome = { status, error, recorded };
  if (!recorded) return false;
  await pruneRuns(io.deps, run.comparisonId, io.deps.historyKeep ?? DEFAULT_HISTORY_KEEP);
  run.progress = { ...run.progress, stage };
  send(io, run, "COMPARISON_STATUS", { comparisonId: run.comparisonId, status, progress: run.progress });
  return true;
}

/** Fails the comparison and its unfinished targets with the restart reason (or `reason`), and tells the owner. */
export async function settleInterrupted(io: RunIO, run: RunContext, reason = INTERRUPTED_REASON): Promise<boolean> {
  const { db, repo, now } = io.deps;
  const at = nowIso(now());
  const recorded = await db.tx(async () => {
    await repo.failUnfinishedTargets(run.comparisonId, reason);
    await repo.interruptRuns(run.comparisonId, reason, at);
    return repo.finish(run.comparisonId, "failed", reason, "Failed", at);
  });
  run.outcome = { status: "failed", error: reason, recorded };
  if (recorded)
    recordActivity(io, {
      userId: run.ownerId,
      message: `Comparison "${run.name}" failed`,
      details: reason,
      status: "error",
      metadata: { comparisonId: run.comparisonId },
    });
  return recorded;
}
