// Run history retention: a comparison keeps its newest `historyKeep` ended runs. Older runs go
// with their snapshots, scores, findings and changes (the rows cascade), and each of their files
// goes once no remaining snapshot names it (identical captures share one file).
import type { RunDeps } from "./io";

export const DEFAULT_HISTORY_KEEP = 50;

/** Deletes the runs beyond the newest `keep`; returns how many went. Failures cost disk space only, so they are logged. */
export async function pruneRuns(deps: Pick<RunDeps, "db" | "repo" | "files" | "log">, comparisonId: string, keep: number): Promise<number> {
  const { db, repo, files, log } = deps;
  let paths: string[] = [];
  let removed = 0;
  try {
    paths = await db.tx(async () => {
      const old = await repo.runsBeyond(comparisonId, keep);
      const named = new Set<string>();
      for (const id of old) for (const p of await repo.snapshotPathsOfRun(id)) named.add(p);
      for (const id of old) await repo.deleteRun(id);
      removed = old.length;
      return [...named];
    });
  } catch (e) {
    log(`could not prune the run history of comparison ${comparisonId}`, e);
    return 0;
  }
  // After the rows are gone: a capture adopting the same file meanwhile pins it until its row is written.
  for (const p of paths) {
    try {
      await files.removeUnused(p, repo.pathInUse);
    } catch (e) {
      log("could not remove an old screenshot", e);
    }
  }
  return removed;
}
