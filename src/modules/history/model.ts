// Request and response shapes of the run history API, declared once (zod) with their types derived.
import { z } from "zod";
import { diffDto, findingDto, runTrigger, snapshotDto } from "#server/modules/comparisons/model";
import { runChangeCounts } from "#server/modules/changes/model";

/** interrupted: a restart ended it before it wrote its results. */
export const runStatus = z.enum(["running", "completed", "failed", "interrupted"]);

export const changesStatus = z.enum(["first-run", "pending", "ready"]);
export type ChangesStatus = z.infer<typeof changesStatus>;

export const runDto = z.object({
  id: z.string(),
  /** 1, 2, 3 … within the comparison. */
  number: z.number().int(),
  trigger: runTrigger,
  status: runStatus,
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Changes against the previous completed run; null until found, or when there is no earlier run to compare with. */
  changeCount: z.number().int().nullable(),
  /** The same changes by kind and severity, so a timeline needs no request per run; null when changeCount is. */
  changes: runChangeCounts.nullable(),
  /**
   * Why changeCount is what it is: "first-run" (no completed run before it to compare with), "pending"
   * (running, or completed and its changes not stored yet), "ready" (counted). Null for a run that
   * did not complete: it has no results to compare.
   */
  changesStatus: changesStatus.nullable(),
  /** Why it failed, when it did. */
  error: z.string().nullable(),
});
export type RunDto = z.infer<typeof runDto>;

export const runParams = z.object({ id: z.string(), runId: z.string() });

/** GET /api/comparisons/:id/runs/:runId: one run's results as they were stored. */
export const runDetail = z.object({
  run: runDto,
  snapshots: z.array(snapshotDto),
  diffs: z.array(diffDto),
  findings: z.array(findingDto),
});
export type RunDetail = z.infer<typeof runDetail>;

/** Disk use of the run history, for the super-admin console. */
export const historyStorage = z.object({
  runs: z.number().int(),
  snapshots: z.number().int(),
  /** Screenshot files (identical captures of a comparison share one). */
  files: z.number().int(),
  /** Bytes of those files, each counted once. */
  bytes: z.number().int(),
  /** Bytes the snapshots would take with one file each: what sharing saves is the difference. */
  bytesWithoutDedupe: z.number().int(),
});
export type HistoryStorage = z.infer<typeof historyStorage>;
