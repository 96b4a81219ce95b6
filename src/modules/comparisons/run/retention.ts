// Run history retention: a comparison keeps its newest `historyKeep` ended runs. Older runs go
// with their snapshots, scores, findings and changes (the rows cascade), and each of their files
// goes once no remaining snapshot names it (identical captures share one file).
import { writeTx } from "#server/db/connection";
import type { RunDeps } from "./io";

export const DEFAULT_HISTORY_KEEP = 50;

/** Deletes the runs beyond the newest `keep`; returns how many went. Failures cost disk space only, so they are logged. */
export function pruneRuns(deps: Pick<RunDeps, "db" | "repo" | "files" | "log">, comparisonId: string, keep: number): number {
  const { db, repo, files, log } = deps;
  let paths: string[] = [];
  let removed = 0;
  try {
    paths = writeTx(db, () => {
      const old = repo.runsBeyond(comparisonId, keep);
      const named = new Set(old.flatMap((id) => repo.snapshotPathsOfRun(id)));
      for (const id of old) repo.deleteRun(id);
      removed = old.length;
      return [...named];
    });
  } catch (e) {
    log(`could not prune the run history of comparison ${comparisonId}`, e);
    return 0;
  }
  // Synchronous after the rows are gone: a capture adopting the same file re-adds its row in one turn too.
  for (const p of paths) {
    try {
      files.removeUnused(p, repo.pathInUse);
    } catch (e) {
      log("could not remove an old screenshot", e);
    }
  }
  return removed;
}
