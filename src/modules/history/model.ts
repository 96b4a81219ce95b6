// Request and response shapes of the run history API, declared once (zod) with their types derived.
import { z } from "zod";
import { diffDto, findingDto, snapshotDto } from "#server/modules/comparisons/model";
import { changeKinds, severities } from "#server/modules/watch/public";

export const runTrigger = z.enum(["manual", "schedule"]);
/** interrupted: a restart ended it before it wrote its results. */
export const runStatus = z.enum(["running", "completed", "failed", "interrupted"]);

const countsOf = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<K, z.ZodNumber>);

/** A run's stored changes counted by kind and by severity (every key present, zero when none). */
export const runChangeCounts = z.object({
  total: z.number().int(),
  byKind: countsOf(changeKinds),
  bySeverity: countsOf(severities),
});
export type RunChangeCounts = z.infer<typeof runChangeCounts>;

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
// The changes endpoints' query and response shapes are the watch module's (watch/changes/model.ts).

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
