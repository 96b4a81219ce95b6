// A run's stored changes counted by kind and severity: the run history's runs list shows them, so
// a timeline needs no request per run.
import type { SqlDb } from "#server/db/sql";
import { changeKinds, severities, type ChangeKind, type RunChangeCounts, type Severity } from "./model";
import { changesRepository, type ChangesRepository } from "./repository";

type CountRow = Awaited<ReturnType<ChangesRepository["changeCounts"]>>[number];

/** Every key present, each zero: a run whose changes were found but are none. */
export const noChangeCounts = (): RunChangeCounts => ({
  total: 0,
  byKind: Object.fromEntries(changeKinds.map((k) => [k, 0])) as RunChangeCounts["byKind"],
  bySeverity: Object.fromEntries(severities.map((s) => [s, 0])) as RunChangeCounts["bySeverity"],
});

/** The grouped rows folded per run. */
function countsByRun(rows: readonly CountRow[]): Map<string, RunChangeCounts> {
  const out = new Map<string, RunChangeCounts>();
  for (const r of rows) {
    let c = out.get(r.run_id);
    if (!c) out.set(r.run_id, (c = noChangeCounts()));
    c.total += r.n;
    c.byKind[r.kind as ChangeKind] += r.n;
    c.bySeverity[r.severity as Severity] += r.n;
  }
  return out;
}

/** Per run of one comparison (run id → counts); runs without stored changes are absent. */
export function changeCounts(db: SqlDb): (comparisonId: string, ownerId: string) => Promise<Map<string, RunChangeCounts>> {
  const repo = changesRepository(db);
  return async (comparisonId, ownerId) => countsByRun(await repo.changeCounts(comparisonId, ownerId));
}
