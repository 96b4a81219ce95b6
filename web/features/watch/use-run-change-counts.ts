import { useEffect, useState } from "react";
import { getChanges, type RunDto } from "./api";
import { countChanges } from "./changes-data";

export type RunCounts = ReturnType<typeof countChanges>;

/**
 * Each run's changes by kind and severity. The run list only carries a total; the changes a run
 * found when it completed are stored, so asking for them (against the run before) is a read.
 * Two at a time, newest first, and only for runs that found something.
 */
export function useRunChangeCounts(comparisonId: string, runs: readonly RunDto[] | null): ReadonlyMap<string, RunCounts> {
  const [counts, setCounts] = useState<ReadonlyMap<string, RunCounts>>(new Map());
  const wanted = (runs ?? []).filter((r) => r.status === "completed" && (r.changeCount ?? 0) > 0).map((r) => r.id);
  const key = wanted.join(",");

  useEffect(() => {
    let cancelled = false;
    const queue = key ? key.split(",").filter((id) => !counts.has(id)) : [];
    const worker = async () => {
      for (let id = queue.shift(); id && !cancelled; id = queue.shift()) {
        const runId = id;
        try {
          const changes = await getChanges(comparisonId, { to: runId });
          if (!cancelled) setCounts((m) => new Map(m).set(runId, countChanges(changes.targets)));
        } catch {
          /* the badge row stays a plain total */
        }
      }
    };
    void Promise.all([worker(), worker()]);
    return () => {
      cancelled = true;
    };
    // `counts` is read only to skip runs already counted; adding it would refetch on every answer.
  }, [comparisonId, key]);

  return counts;
}
