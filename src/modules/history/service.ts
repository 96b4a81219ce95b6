// Run history: the runs of a comparison, any past run's results as they were stored, and disk use.
import type { Db } from "../../db/connection";
import { notFound } from "../../http/errors";
import type { DiffDto, FindingDto, SnapshotDto } from "../comparisons/model";
import { comparisonsRepository, type RunRow } from "../comparisons/repository";
import { toDiffDto, toFindingDto, toSnapshotDto } from "../comparisons/service";
import type { HistoryStorage, RunDto } from "./model";
import { historyRepository } from "./repository";

export const COMPARISON_NOT_FOUND = "Comparison not found";
export const RUN_NOT_FOUND = "Run not found";

export const toRunDto = (r: RunRow): RunDto => ({
  id: r.id,
  number: r.number,
  trigger: r.trigger,
  status: r.status,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  changeCount: r.change_count,
  error: r.error,
});

export interface RunDetail {
  run: RunDto;
  snapshots: SnapshotDto[];
  diffs: DiffDto[];
  findings: FindingDto[];
}

export function historyService(deps: { db: Db }) {
  const comparisons = comparisonsRepository(deps.db);
  const repo = historyRepository(deps.db);

  const ownedComparison = (ownerId: string, comparisonId: string) => {
    const c = comparisons.findComparison(comparisonId, ownerId);
    if (!c) throw notFound(COMPARISON_NOT_FOUND);
    return c;
  };
  const ownedRun = (ownerId: string, comparisonId: string, runId: string) => {
    ownedComparison(ownerId, comparisonId);
    const r = repo.findRun(runId, comparisonId, ownerId);
    if (!r) throw notFound(RUN_NOT_FOUND);
    return r;
  };

  return {
    repo,
    ownedComparison,
    ownedRun,

    /** Newest first. */
    listRuns(ownerId: string, comparisonId: string): RunDto[] {
      ownedComparison(ownerId, comparisonId);
      return repo.listRuns(comparisonId, ownerId).map(toRunDto);
    },

    /** One run's snapshots, scores and findings exactly as they were stored. */
    getRun(ownerId: string, comparisonId: string, runId: string): RunDetail {
      const run = ownedRun(ownerId, comparisonId, runId);
      return {
        run: toRunDto(run),
        snapshots: repo.runSnapshots(run.id, ownerId).map(toSnapshotDto),
        diffs: repo.runDiffs(run.id, ownerId).map(toDiffDto),
        findings: repo.runFindings(run.id, ownerId).map(toFindingDto),
      };
    },

    storage(): HistoryStorage {
      const s = repo.storage();
      return { runs: s.runs, snapshots: s.snapshots, files: s.files, bytes: s.bytes ?? 0, bytesWithoutDedupe: s.raw ?? 0 };
    },
  };
}

export type HistoryService = ReturnType<typeof historyService>;
