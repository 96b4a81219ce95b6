// Mission Control reads for the API, and the two writes the main thread makes (trend settings,
// ingested A/B events go through traffic-repository). Every list is filtered by viewer in SQL:
// $1 is true for admins, else rows with no owner or the viewer's own ($2) are seen.
import type { SqlDb } from "#server/db/sql";
import type { AgentRow, ComponentRow, ExperimentRow, PredictionRow, TrendRow, VariantRow } from "./rows";

const VISIBLE = "($1 OR owner_id IS NULL OR owner_id = $2)";

export function agentsRepository(db: SqlDb) {
  const saveSetting = db.dialect.upsert("settings", ["key", "value", "updated_at"], ["key"]);
  return {
    agents: () =>
      db.all<AgentRow>(
        "SELECT * FROM agents ORDER BY CASE type WHEN 'trend_detection' THEN 1 WHEN 'component_generation' THEN 2 WHEN 'testing' THEN 3 ELSE 4 END",
      ),
    metrics: async (isAdmin: boolean, viewerId: string) =>
      (await db.one<{ trends: number; components: number; active: number; correct: number; decided: number; simulated_decided: number }>(
        `SELECT (SELECT COUNT(*) FROM trends WHERE active = TRUE) AS trends,
                (SELECT COUNT(*) FROM components WHERE ${VISIBLE}) AS components,
                (SELECT COUNT(*) FROM experiments WHERE status = 'active' AND ${VISIBLE}) AS active,
                (SELECT COUNT(*) FROM predictions WHERE outcome = 'correct') AS correct,
                (SELECT COUNT(*) FROM predictions WHERE outcome IN ('correct', 'wrong')) AS decided,
                (SELECT COUNT(*) FROM predictions p JOIN experiments e ON e.id = p.experiment_id
                  WHERE p.outcome IN ('correct', 'wrong') AND e.traffic = 'simulated') AS simulated_decided`,
        [isAdmin, viewerId],
      ))!,
    trends: (limit: number) =>
      db.all<TrendRow>("SELECT * FROM trends WHERE active = TRUE ORDER BY discovered_at DESC, id DESC LIMIT $1", [limit]),
    setting: async (key: string) => (await db.one<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key]))?.value ?? null,
    saveSetting: (key: string, value: string, at: string) => db.run(saveSetting, [key, value, at]),
    components: (isAdmin: boolean, viewerId: string, limit: number) =>
      db.all<ComponentRow>(`SELECT * FROM components WHERE ${VISIBLE} ORDER BY created_at DESC, id DESC LIMIT $3`, [
        isAdmin,
        viewerId,
        limit,
      ]),
    component: (isAdmin: boolean, viewerId: string, id: string) =>
      db.one<ComponentRow>(`SELECT * FROM components WHERE id = $3 AND ${VISIBLE}`, [isAdmin, viewerId, id]),
    experiments: (isAdmin: boolean, viewerId: string, status: string | undefined, limit: number) =>
      status
        ? db.all<ExperimentRow>(
            `SELECT * FROM experiments WHERE ${VISIBLE} AND status = $3
             ORDER BY CASE WHEN status = 'completed' THEN completed_at ELSE started_at END DESC, id DESC LIMIT $4`,
            [isAdmin, viewerId, status, limit],
          )
        : db.all<ExperimentRow>(`SELECT * FROM experiments WHERE ${VISIBLE} ORDER BY started_at DESC, id DESC LIMIT $3`, [
            isAdmin,
            viewerId,
            limit,
          ]),
    experiment: (id: string) => db.one<ExperimentRow>("SELECT * FROM experiments WHERE id = $1", [id]),
    variants: (experimentId: string) =>
      db.all<VariantRow>("SELECT * FROM experiment_variants WHERE experiment_id = $1 ORDER BY label", [experimentId]),
    prediction: (experimentId: string) => db.one<PredictionRow>("SELECT * FROM predictions WHERE experiment_id = $1", [experimentId]),
    trafficSeries: (isAdmin: boolean, viewerId: string, prefix: number, since: string) =>
      db.all<{ b: string; impressions: number; conversions: number; simulated: number }>(
        `SELECT substr(t.bucket, 1, $3) AS b, SUM(t.impressions) AS impressions, SUM(t.conversions) AS conversions,
                SUM(CASE WHEN t.source = 'simulated' THEN t.impressions ELSE 0 END) AS simulated
         FROM experiment_traffic t JOIN experiments e ON e.id = t.experiment_id
         WHERE t.bucket >= $4 AND ($1 OR e.owner_id IS NULL OR e.owner_id = $2)
         GROUP BY b`,
        [isAdmin, viewerId, prefix, since],
      ),
    startedSeries: (isAdmin: boolean, viewerId: string, prefix: number, since: string) =>
      db.all<{ b: string; n: number }>(
        `SELECT substr(started_at, 1, $3) AS b, COUNT(*) AS n FROM experiments WHERE started_at >= $4 AND ${VISIBLE} GROUP BY b`,
        [isAdmin, viewerId, prefix, since],
      ),
    completedSeries: (isAdmin: boolean, viewerId: string, prefix: number, since: string) =>
      db.all<{ b: string; n: number }>(
        `SELECT substr(completed_at, 1, $3) AS b, COUNT(*) AS n FROM experiments WHERE completed_at >= $4 AND ${VISIBLE} GROUP BY b`,
        [isAdmin, viewerId, prefix, since],
      ),
    decidedPredictions: () =>
      db.all<{ outcome: "correct" | "wrong"; scored_at: string }>(
        "SELECT outcome, scored_at FROM predictions WHERE outcome IN ('correct', 'wrong') ORDER BY scored_at, id",
      ),
    similarities: async (isAdmin: boolean, viewerId: string) =>
      (await db.all<{ s: number }>("SELECT overall_similarity AS s FROM diffs WHERE ($1 OR owner_id = $2)", [isAdmin, viewerId])).map(
        (r) => r.s,
      ),
  };
}
export type AgentsRepository = ReturnType<typeof agentsRepository>;
