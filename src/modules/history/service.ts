// Run history: the runs of a comparison, any past run's results as they were stored, and disk use.
// What changed between runs is the changes module's; it reads runs through `runs` here.
import type { SqlDb } from "#server/db/sql";
import { notFound } from "#server/http/errors";
import { changeCounts, noChangeCounts } from "#server/modules/changes/public";
import type { RunChangeCounts, RunReads } from "#server/modules/changes/model";
import { comparisonsRepository, type RunRow } from "#server/modules/comparisons/public";
import { toDiffDto, toFindingDto, toSnapshotDto } from "#server/modules/comparisons/public";
import type { ChangesStatus, HistoryStorage, RunDetail, RunDto } from "./model";
import { historyRepository } from "./repository";

export const COMPARISON_NOT_FOUND = "Comparison not found";
export const RUN_NOT_FOUND = "Run not found";

/** `earlierCompleted`: whether a completed run of the same comparison precedes this one. */
export function changesStatusOf(r: RunRow, earlierCompleted: boolean): ChangesStatus | null {
  if (r.change_count !== null) return "ready";
  if (r.status === "running") return "pending";
  if (r.status !== "completed") return null;
  return earlierCompleted ? "pending" : "first-run";
}

/**
 * `counts`: the run's grouped change counts; a run whose changes were found but are none counts zero.
 * `earlierCompleted`: whether a completed run precedes it (first run or still being compared).
 */
export const toRunDto = (r: RunRow, earlierCompleted: boolean, counts?: RunChangeCounts): RunDto => ({
  id: r.id,
  number: r.number,
  trigger: r.trigger,
  status: r.status,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  changeCount: r.change_count,
  changes: r.change_count === null ? null : (counts ?? noChangeCounts()),
  changesStatus: changesStatusOf(r, earlierCompleted),
  error: r.error,
});

export interface HistoryDeps {
  db: SqlDb;
}

export function historyService(deps: HistoryDeps) {
  const comparisons = comparisonsRepository(deps.db);
  const repo = historyRepository(deps.db);
  const countsOf = changeCounts(deps.db);

  const ownedComparison = async (ownerId: string, comparisonId: string) => {
    const c = await comparisons.findComparison(comparisonId, ownerId);
    if (!c) throw notFound(COMPARISON_NOT_FOUND);
    return c;
  };
  const ownedRun = async (ownerId: string, comparisonId: string, runId: string) => {
    await ownedComparison(ownerId, comparisonId);
    const r = await repo.findRun(runId, comparisonId, ownerId);
    if (!r) throw notFound(RUN_NOT_FOUND);
    return r;
  };

  /** What change detection reads of runs, with the same ownership checks as the routes here. */
  const runs: RunReads = {
    ownedComparison,
    ownedRun,
    findRun: repo.findRun,
    lastCompletedRuns: repo.lastCompletedRuns,
    completedRunBefore: repo.completedRunBefore,
    runSnapshots: repo.runSnapshots,
  };

  return {
    runs,

    /** Newest first. */
    async listRuns(ownerId: string, comparisonId: string): Promise<RunDto[]> {
      await ownedComparison(ownerId, comparisonId);
      const counts = await countsOf(comparisonId, ownerId);
      const rows = await repo.listRuns(comparisonId, ownerId);
      // Newest first: a run has a completed run before it when any older one in the list completed.
      const oldestCompleted = rows.findLast((r) => r.status === "completed")?.number ?? Infinity;
      return rows.map((r) => toRunDto(r, r.number > oldestCompleted, counts.get(r.id)));
    },

    /** One run's snapshots, scores and findings exactly as they were stored. */
    async getRun(ownerId: string, comparisonId: string, runId: string): Promise<RunDetail> {
      const run = await ownedRun(ownerId, comparisonId, runId);
      const earlierCompleted = (await repo.completedRunBefore(comparisonId, run.number)) !== null;
      return {
        run: toRunDto(run, earlierCompleted, (await countsOf(comparisonId, ownerId)).get(run.id)),
        snapshots: (await repo.runSnapshots(run.id, ownerId)).map(toSnapshotDto),
        diffs: (await repo.runDiffs(run.id, ownerId)).map(toDiffDto),
        findings: (await repo.runFindings(run.id, ownerId)).map(toFindingDto),
      };
    },

    async storage(): Promise<HistoryStorage> {
      const s = await repo.storage();
      return { runs: s.runs, snapshots: s.snapshots, files: s.files, bytes: s.bytes ?? 0, bytesWithoutDedupe: s.raw ?? 0 };
    },
  };
}

export type HistoryService = ReturnType<typeof historyService>;
