// Run history: the runs of a comparison, any past run's results as they were stored, what changed
// between two runs (found when a run completes, or on request for any other pair), and disk use.
import type { Db } from "#server/db/connection";
import type { Audience, LiveMessage } from "#server/live/hub";
import { writeTx } from "#server/db/connection";
import { badRequest, notFound } from "#server/http/errors";
import { newId } from "#server/lib/ids";
import { screenshotFiles } from "#server/modules/comparisons/public";
import { comparisonsRepository, type RunRow } from "#server/modules/comparisons/public";
import type { RunContext } from "#server/modules/comparisons/active-runs";
import { toDiffDto, toFindingDto, toSnapshotDto } from "#server/modules/comparisons/public";
import type { TargetChanges } from "#server/modules/watch/alerts/model";
import type { ChangeKind, ChangesQuery, ChangesResponse, Severity, VisualQuery } from "#server/modules/watch/changes/model";
import { changeKinds, severities } from "#server/modules/watch/public";
import { changesBetween, pageVolatility, screenshotPair } from "./changes";
import { pixelsWorker } from "./pixels";
import type { HistoryStorage, RunChangeCounts, RunDetail, RunDto } from "./model";
import { historyRepository, type ChangeRow, type HistoryRepository } from "./repository";

export const COMPARISON_NOT_FOUND = "Comparison not found";
export const RUN_NOT_FOUND = "Run not found";

type CountRow = ReturnType<HistoryRepository["changeCounts"]>[number];

const emptyCounts = (): RunChangeCounts => ({
  total: 0,
  byKind: Object.fromEntries(changeKinds.map((k) => [k, 0])) as RunChangeCounts["byKind"],
  bySeverity: Object.fromEntries(severities.map((s) => [s, 0])) as RunChangeCounts["bySeverity"],
});

/** The grouped rows folded per run. */
function countsByRun(rows: readonly CountRow[]): Map<string, RunChangeCounts> {
  const out = new Map<string, RunChangeCounts>();
  for (const r of rows) {
    let c = out.get(r.run_id);
    if (!c) out.set(r.run_id, (c = emptyCounts()));
    c.total += r.n;
    c.byKind[r.kind as ChangeKind] += r.n;
    c.bySeverity[r.severity as Severity] += r.n;
  }
  return out;
}

/** `counts`: the run's grouped change counts; a run whose changes were found but are none counts zero. */
export const toRunDto = (r: RunRow, counts?: RunChangeCounts): RunDto => ({
  id: r.id,
  number: r.number,
  trigger: r.trigger,
  status: r.status,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  changeCount: r.change_count,
  changes: r.change_count === null ? null : (counts ?? emptyCounts()),
  error: r.error,
});

/** A completed run's changes against the completed run before it (for alerts). */
export interface RunChanges {
  ownerId: string;
  comparisonId: string;
  runId: string;
  fromRunId: string;
  runNumber: number;
  targets: TargetChanges[];
}

export interface HistoryDeps {
  db: Db;
  dataDir: string;
  log?: (msg: string, err?: unknown) => void;
  /** After a run's changes are stored (alerts). */
  onChanges?: (changes: RunChanges) => unknown;
  /** Live messages to the owner's sockets: a run's change count arrives after the run completed. */
  publish?: (message: LiveMessage, to: Audience) => unknown;
}

const NEED_TWO_RUNS = "Changes need two completed runs of this comparison";

const toChangeRows = (run: RunRow, from: RunRow, targets: TargetChanges[]): ChangeRow[] =>
  targets.flatMap((t) =>
    t.changes.map((c, position) => ({
      id: newId(),
      run_id: run.id,
      from_run_id: from.id,
      comparison_id: run.comparison_id,
      owner_id: run.owner_id,
      target_id: t.targetId,
      viewport: c.viewport,
      kind: c.kind,
      severity: c.severity,
      summary: c.summary,
      before: c.before,
      after: c.after,
      evidence: JSON.stringify(c.evidence),
      position,
    })),
  );

export function historyService(deps: HistoryDeps) {
  const comparisons = comparisonsRepository(deps.db);
  const repo = historyRepository(deps.db);
  const files = screenshotFiles(deps.dataDir);
  const pixels = pixelsWorker();
  const sources = { repo, files, pixels };
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err));

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

  /** The two runs to compare: the ones asked for, or the last two completed. */
  function pair(ownerId: string, comparisonId: string, q: ChangesQuery): { from: RunRow; to: RunRow } {
    ownedComparison(ownerId, comparisonId);
    const completed = (id: string) => {
      const r = ownedRun(ownerId, comparisonId, id);
      if (r.status !== "completed") throw badRequest(`Run #${r.number} did not complete: only completed runs can be compared`);
      return r;
    };
    const to = q.to ? completed(q.to) : repo.lastCompletedRuns(comparisonId, ownerId, 1)[0];
    if (!to) throw notFound(NEED_TWO_RUNS);
    const from = q.from ? completed(q.from) : repo.completedRunBefore(comparisonId, to.number);
    if (!from) throw notFound(NEED_TWO_RUNS);
    if (from.number >= to.number) throw badRequest("from must be an earlier run than to");
    return { from, to };
  }

  /** Changes found when `to` completed, if they were found against `from`. */
  function stored(ownerId: string, from: RunRow, to: RunRow): TargetChanges[] | null {
    if (to.change_count === null || repo.completedRunBefore(to.comparison_id, to.number)?.id !== from.id) return null;
    const rows = repo.changes(to.id, from.id, ownerId);
    return comparisons.listTargets(to.comparison_id, ownerId).map((t) => ({
      targetId: t.id,
      label: t.label,
      url: t.url,
      changes: rows
        .filter((r) => r.target_id === t.id)
        .map((r) => ({
          kind: r.kind as TargetChanges["changes"][number]["kind"],
          severity: r.severity,
          viewport: r.viewport,
          summary: r.summary,
          before: r.before,
          after: r.after,
          evidence: JSON.parse(r.evidence) as TargetChanges["changes"][number]["evidence"],
        })),
    }));
  }

  return {
    repo,
    ownedComparison,
    ownedRun,

    /** Per target, what changed from one completed run to a later one (default: the last two). */
    async changes(ownerId: string, comparisonId: string, q: ChangesQuery): Promise<ChangesResponse> {
      const { from, to } = pair(ownerId, comparisonId, q);
      const targets =
        stored(ownerId, from, to) ?? (await changesBetween(sources, ownerId, comparisons.listTargets(comparisonId, ownerId), from, to));
      return { from: from.id, to: to.id, targets };
    },

    /** The pixel heat map of one page between two runs, as a PNG. */
    async visual(ownerId: string, comparisonId: string, q: VisualQuery): Promise<Uint8Array> {
      const { from, to } = pair(ownerId, comparisonId, q);
      if (comparisons.findTarget(q.targetId, ownerId)?.comparison_id !== comparisonId) throw notFound("Website not found");
      const page = (run: RunRow) => repo.runSnapshots(run.id, ownerId).find((s) => s.target_id === q.targetId && s.viewport === q.viewport);
      const before = page(from);
      const after = page(to);
      if (!before || !after) throw notFound(`This website was not captured at ${q.viewport} in both runs`);
      const paths = screenshotPair(files, before, after);
      if (!paths) throw notFound("Screenshot not found");
      // Parts that move by themselves are masked (and outlined in amber), as when the changes were found.
      return pixels.heatmap(...paths, pageVolatility(sources, from, before, after).boxes);
    },

    /**
     * The runner's after-completion hook: finds the run's changes against the completed run before
     * it, stores them with the run's change count, then hands them on (alerts). The first run has
     * nothing to compare with and keeps a null count.
     */
    async onRunCompleted(run: Readonly<RunContext>): Promise<void> {
      const to = repo.findRun(run.runId, run.comparisonId, run.ownerId);
      if (!to || to.status !== "completed") return;
      const from = repo.completedRunBefore(run.comparisonId, to.number);
      if (!from) return;
      const targets = await changesBetween(sources, run.ownerId, comparisons.listTargets(run.comparisonId, run.ownerId), from, to);
      const count = targets.reduce((n, t) => n + t.changes.length, 0);
      // The run may have been pruned or its comparison deleted meanwhile: then there is nothing to store.
      const kept = writeTx(deps.db, () => {
        if (!repo.findRun(to.id, run.comparisonId, run.ownerId) || !repo.findRun(from.id, run.comparisonId, run.ownerId)) return false;
        repo.storeChanges(to.id, toChangeRows(to, from, targets), count);
        return true;
      });
      if (!kept) return;
      // The run's status went out when it completed; its change count only now (timelines refresh on it).
      deps.publish?.(
        { type: "RUN_CHANGES", payload: { comparisonId: run.comparisonId, runId: to.id, changeCount: count } },
        { kind: "user", userId: run.ownerId },
      );
      if (!deps.onChanges) return;
      try {
        await deps.onChanges({
          ownerId: run.ownerId,
          comparisonId: run.comparisonId,
          runId: to.id,
          fromRunId: from.id,
          runNumber: to.number,
          targets,
        });
      } catch (e) {
        log(`change alerts for comparison ${run.comparisonId} failed`, e);
      }
    },

    /** Newest first. */
    listRuns(ownerId: string, comparisonId: string): RunDto[] {
      ownedComparison(ownerId, comparisonId);
      const counts = countsByRun(repo.changeCounts(comparisonId, ownerId));
      return repo.listRuns(comparisonId, ownerId).map((r) => toRunDto(r, counts.get(r.id)));
    },

    /** One run's snapshots, scores and findings exactly as they were stored. */
    getRun(ownerId: string, comparisonId: string, runId: string): RunDetail {
      const run = ownedRun(ownerId, comparisonId, runId);
      return {
        run: toRunDto(run, countsByRun(repo.changeCounts(comparisonId, ownerId)).get(run.id)),
        snapshots: repo.runSnapshots(run.id, ownerId).map(toSnapshotDto),
        diffs: repo.runDiffs(run.id, ownerId).map(toDiffDto),
        findings: repo.runFindings(run.id, ownerId).map(toFindingDto),
      };
    },

    /** Stops the pixels worker (shutdown). */
    close: () => pixels.close(),

    storage(): HistoryStorage {
      const s = repo.storage();
      return { runs: s.runs, snapshots: s.snapshots, files: s.files, bytes: s.bytes ?? 0, bytesWithoutDedupe: s.raw ?? 0 };
    },
  };
}

export type HistoryService = ReturnType<typeof historyService>;
