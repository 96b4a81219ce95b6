// Mission Control reads for the API, and the two writes the main thread makes (trend settings,
// ingested A/B events go through traffic-repository). Every list is filtered by viewer in SQL:
// ?1 = 1 for admins, else rows with no owner or the viewer's own.
import type { Db } from "#server/db/connection";
import type { AgentRow, ComponentRow, ExperimentRow, PredictionRow, TrendRow, VariantRow } from "./rows";

const VISIBLE = "(?1 = 1 OR owner_id IS NULL OR owner_id = ?2)";

export function agentsRepository(db: Db) {
  const q = {
    agents: db.query<AgentRow, []>(
      "SELECT * FROM agents ORDER BY CASE type WHEN 'trend_detection' THEN 1 WHEN 'component_generation' THEN 2 WHEN 'testing' THEN 3 ELSE 4 END",
    ),
    metrics: db.query<
      { trends: number; components: number; active: number; correct: number; decided: number; simulated_decided: number },
      [number, string]
    >(
      `SELECT (SELECT COUNT(*) FROM trends WHERE active = 1) AS trends,
              (SELECT COUNT(*) FROM components WHERE ${VISIBLE}) AS components,
              (SELECT COUNT(*) FROM experiments WHERE status = 'active' AND ${VISIBLE}) AS active,
              (SELECT COUNT(*) FROM predictions WHERE outcome = 'correct') AS correct,
              (SELECT COUNT(*) FROM predictions WHERE outcome IN ('correct', 'wrong')) AS decided,
              (SELECT COUNT(*) FROM predictions p JOIN experiments e ON e.id = p.experiment_id
                WHERE p.outcome IN ('correct', 'wrong') AND e.traffic = 'simulated') AS simulated_decided`,
    ),
    trends: db.query<TrendRow, [number]>("SELECT * FROM trends WHERE active = 1 ORDER BY discovered_at DESC, id DESC LIMIT ?"),
    setting: db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?"),
    saveSetting: db.query<null, [string, string, string]>(
      "INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO UPDATE SET value = ?2, updated_at = ?3",
    ),
    components: db.query<ComponentRow, [number, string, number]>(
      `SELECT * FROM components WHERE ${VISIBLE} ORDER BY created_at DESC, id DESC LIMIT ?3`,
    ),
    component: db.query<ComponentRow, [number, string, string]>(`SELECT * FROM components WHERE id = ?3 AND ${VISIBLE}`),
    experimentsByStatus: db.query<ExperimentRow, [number, string, string, number]>(
      `SELECT * FROM experiments WHERE ${VISIBLE} AND status = ?3
       ORDER BY CASE WHEN status = 'completed' THEN completed_at ELSE started_at END DESC, id DESC LIMIT ?4`,
    ),
    experimentsAll: db.query<ExperimentRow, [number, string, number]>(
      `SELECT * FROM experiments WHERE ${VISIBLE} ORDER BY started_at DESC, id DESC LIMIT ?3`,
    ),
    experiment: db.query<ExperimentRow, [string]>("SELECT * FROM experiments WHERE id = ?"),
    variants: db.query<VariantRow, [string]>("SELECT * FROM experiment_variants WHERE experiment_id = ? ORDER BY label"),
    prediction: db.query<PredictionRow, [string]>("SELECT * FROM predictions WHERE experiment_id = ?"),
    trafficSeries: db.query<{ b: string; impressions: number; conversions: number; simulated: number }, [number, string, number, string]>(
      `SELECT substr(t.bucket, 1, ?3) AS b, SUM(t.impressions) AS impressions, SUM(t.conversions) AS conversions,
              SUM(CASE WHEN t.source = 'simulated' THEN t.impressions ELSE 0 END) AS simulated
       FROM experiment_traffic t JOIN experiments e ON e.id = t.experiment_id
       WHERE t.bucket >= ?4 AND (?1 = 1 OR e.owner_id IS NULL OR e.owner_id = ?2)
       GROUP BY b`,
    ),
    startedSeries: db.query<{ b: string; n: number }, [number, string, number, string]>(
      `SELECT substr(started_at, 1, ?3) AS b, COUNT(*) AS n FROM experiments WHERE started_at >= ?4 AND ${VISIBLE} GROUP BY b`,
    ),
    completedSeries: db.query<{ b: string; n: number }, [number, string, number, string]>(
      `SELECT substr(completed_at, 1, ?3) AS b, COUNT(*) AS n FROM experiments WHERE completed_at >= ?4 AND ${VISIBLE} GROUP BY b`,
    ),
    decided: db.query<{ outcome: "correct" | "wrong"; scored_at: string }, []>(
      "SELECT outcome, scored_at FROM predictions WHERE outcome IN ('correct', 'wrong') ORDER BY scored_at, id",
    ),
    similarity: db.query<{ s: number }, [number, string]>(`SELECT overall_similarity AS s FROM diffs WHERE (?1 = 1 OR owner_id = ?2)`),
  };
  const admin = (isAdmin: boolean) => (isAdmin ? 1 : 0);
  return {
    agents: () => q.agents.all(),
    metrics: (isAdmin: boolean, viewerId: string) => q.metrics.get(admin(isAdmin), viewerId)!,
    trends: (limit: number) => q.trends.all(limit),
    setting: (key: string) => q.setting.get(key)?.value ?? null,
    saveSetting: (key: string, value: string, at: string) => q.saveSetting.run(key, value, at),
    components: (isAdmin: boolean, viewerId: string, limit: number) => q.components.all(admin(isAdmin), viewerId, limit),
    component: (isAdmin: boolean, viewerId: string, id: string) => q.component.get(admin(isAdmin), viewerId, id),
    experiments: (isAdmin: boolean, viewerId: string, status: string | undefined, limit: number) =>
      status ? q.experimentsByStatus.all(admin(isAdmin), viewerId, status, limit) : q.experimentsAll.all(admin(isAdmin), viewerId, limit),
    experiment: (id: string) => q.experiment.get(id),
    variants: (experimentId: string) => q.variants.all(experimentId),
    prediction: (experimentId: string) => q.prediction.get(experimentId),
    trafficSeries: (isAdmin: boolean, viewerId: string, prefix: number, since: string) =>
      q.trafficSeries.all(admin(isAdmin), viewerId, prefix, since),
    startedSeries: (isAdmin: boolean, viewerId: string, prefix: number, since: string) =>
      q.startedSeries.all(admin(isAdmin), viewerId, prefix, since),
    completedSeries: (isAdmin: boolean, viewerId: string, prefix: number, since: string) =>
      q.completedSeries.all(admin(isAdmin), viewerId, prefix, since),
    decidedPredictions: () => q.decided.all(),
    similarities: (isAdmin: boolean, viewerId: string) => q.similarity.all(admin(isAdmin), viewerId).map((r) => r.s),
  };
}
export type AgentsRepository = ReturnType<typeof agentsRepository>;
