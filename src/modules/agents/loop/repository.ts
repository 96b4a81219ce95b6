// Everything the agents read and write. Runs on the agents worker's own connection (or the main
// connection in-process); the comparisons tables are only ever read here.
import type { Db } from "#server/db/connection";
import type { AgentRow, ComponentRow, ExperimentRow, PredictionRow, TrendRow, VariantRow } from "../rows";

export interface SnapshotSourceRow {
  snapshot_id: string;
  comparison_id: string;
  owner_id: string;
  target_id: string;
  captured_at: string;
  url: string;
}

/** Trend mining looks at this many of the newest desktop captures at most. */
export const MAX_MINED_SNAPSHOTS = 5000;

/** What a trend row says, as TrendHunter writes it on discovery and on every later pass. */
interface TrendFields {
  key: string;
  title: string;
  description: string;
  support: number;
  sampleSize: number;
  share: number;
  direction: string | null;
  directionBasis: string;
  confidence: number;
  strong: boolean;
  evidence: string;
  at: string;
}

export function loopRepository(db: Db) {
  const q = {
    agent: db.query<AgentRow, [string]>("SELECT * FROM agents WHERE id = ?"),
    saveAgent: db.query<null, [string, string | null, number, number | null, number | null, string, string | null, string]>(
      "UPDATE agents SET status = ?, current_task = ?, tasks_completed = ?, accuracy = ?, confidence = ?, metadata = ?, last_activity = ? WHERE id = ?",
    ),
    setting: db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?"),

    snapshots: db.query<SnapshotSourceRow, [number]>(
      `SELECT s.id AS snapshot_id, s.comparison_id, s.owner_id, s.target_id, s.captured_at, t.url
       FROM snapshots s JOIN targets t ON t.id = s.target_id
       WHERE s.viewport = 'desktop' ORDER BY s.captured_at DESC LIMIT ?`,
    ),
    extraction: db.query<{ extraction: string }, [string]>("SELECT extraction FROM snapshots WHERE id = ?"),
    dataVersion: db.query<{ n: number; latest: string | null; findings: number }, []>(
      "SELECT (SELECT COUNT(*) FROM snapshots) AS n, (SELECT MAX(captured_at) FROM snapshots) AS latest, (SELECT COUNT(*) FROM findings) AS findings",
    ),
    findings: db.query<{ target_id: string; title: string }, []>("SELECT target_id, title FROM findings"),
    analysedComparisons: db.query<{ comparison_id: string }, []>("SELECT DISTINCT comparison_id FROM findings"),

    activeTrends: db.query<TrendRow, []>("SELECT * FROM trends WHERE active = 1"),
    trendByKey: db.query<TrendRow, [string]>("SELECT * FROM trends WHERE pattern_key = ?"),
    insertTrend: db.query<
      null,
      [string, string, string, string, string, number, number, number, string | null, string, number, number, string, string, string]
    >(
      `INSERT INTO trends (id, pattern_key, category, title, description, support, sample_size, share, direction, direction_basis, confidence, strong, evidence, active, discovered_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 1, ?14, ?15)`,
    ),
    updateTrend: db.query<
      null,
      [string, string, string, number, number, number, string | null, string, number, number, string, string | null, string]
    >(
      `UPDATE trends SET title = ?2, description = ?3, support = ?4, sample_size = ?5, share = ?6, direction = ?7, direction_basis = ?8,
         confidence = ?9, strong = ?10, evidence = ?11, active = 1, discovered_at = COALESCE(?12, discovered_at), updated_at = ?13
       WHERE pattern_key = ?1`,
    ),
    deactivateTrend: db.query<null, [string, string]>("UPDATE trends SET active = 0, updated_at = ? WHERE pattern_key = ?"),

    componentKeys: db.query<{ source_key: string; kind: string; variant: string }, []>("SELECT source_key, kind, variant FROM components"),
    insertComponent: db.query<
      null,
      [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string | null,
        string | null,
        string,
        string,
        string,
        string,
        number,
        string,
      ]
    >(
      `INSERT INTO components (id, kind, variant, style, name, file_name, source_label, source_key, snapshot_id, owner_id, tokens, features, code, preview_html, compiled, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    compileStats: db.query<{ total: number; ok: number }, []>("SELECT COUNT(*) AS total, COALESCE(SUM(compiled), 0) AS ok FROM components"),
    component: db.query<ComponentRow, [string]>("SELECT * FROM components WHERE id = ?"),
    untestedPairs: db.query<{ source_key: string; kind: string }, []>(
      `SELECT c.source_key, c.kind FROM components c
       WHERE NOT EXISTS (SELECT 1 FROM experiments e WHERE e.source_key = c.source_key AND e.kind = c.kind)
       GROUP BY c.source_key, c.kind HAVING COUNT(DISTINCT c.variant) = 2
       ORDER BY MIN(c.created_at)`,
    ),
    pair: db.query<ComponentRow, [string, string]>("SELECT * FROM components WHERE source_key = ? AND kind = ? ORDER BY variant"),

    insertExperiment: db.query<null, [string, string, string, string, string, string | null, string, number, number, number, string]>(
      `INSERT INTO experiments (id, name, kind, source_key, source_label, owner_id, ingest_key, planned_per_variant, alpha, sim_seed, started_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertVariant: db.query<null, [string, string, string, string | null, string]>(
      "INSERT INTO experiment_variants (id, experiment_id, label, component_id, name) VALUES (?, ?, ?, ?, ?)",
    ),
    activeExperiments: db.query<ExperimentRow, []>("SELECT * FROM experiments WHERE status = 'active' ORDER BY started_at"),
    experiment: db.query<ExperimentRow, [string]>("SELECT * FROM experiments WHERE id = ?"),
    variants: db.query<VariantRow, [string]>("SELECT * FROM experiment_variants WHERE experiment_id = ? ORDER BY label"),
    setSimRate: db.query<null, [number, string]>("UPDATE experiment_variants SET sim_rate = ? WHERE id = ?"),
    bumpBatches: db.query<null, [string]>("UPDATE experiments SET sim_batches = sim_batches + 1 WHERE id = ?"),
    complete: db.query<null, [string | null, string, string, string]>(
      "UPDATE experiments SET status = 'completed', winner_variant_id = ?, result = ?, completed_at = ? WHERE id = ? AND status = 'active'",
    ),

    prediction: db.query<PredictionRow, [string]>("SELECT * FROM predictions WHERE experiment_id = ?"),
    insertPrediction: db.query<null, [string, string, string, string, number, string, string]>(
      "INSERT INTO predictions (id, experiment_id, predicted_variant_id, predicted_label, probability, features, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    unscored: db.query<PredictionRow & { winner_variant_id: string | null; experiment_name: string; owner_id: string | null }, []>(
      `SELECT p.*, e.winner_variant_id, e.name AS experiment_name, e.owner_id FROM predictions p JOIN experiments e ON e.id = p.experiment_id
       WHERE p.outcome IS NULL AND e.status = 'completed' ORDER BY e.completed_at`,
    ),
    score: db.query<null, [string, string, string]>("UPDATE predictions SET outcome = ?, scored_at = ? WHERE id = ?"),
    accuracy: db.query<{ correct: number; decided: number }, []>(
      "SELECT COALESCE(SUM(outcome = 'correct'), 0) AS correct, COALESCE(SUM(outcome IN ('correct', 'wrong')), 0) AS decided FROM predictions",
    ),
    openPredictions: db.query<{ n: number; avg: number | null }, []>(
      "SELECT COUNT(*) AS n, AVG(p.probability) AS avg FROM predictions p JOIN experiments e ON e.id = p.experiment_id WHERE e.status = 'active'",
    ),
  };

  return {
    agent: (id: string) => q.agent.get(id),
    saveAgent: (r: AgentRow) =>
      q.saveAgent.run(r.status, r.current_task, r.tasks_completed, r.accuracy, r.confidence, r.metadata, r.last_activity, r.id),
    setting: (key: string) => q.setting.get(key)?.value ?? null,

    desktopSnapshots: () => q.snapshots.all(MAX_MINED_SNAPSHOTS),
    extraction: (snapshotId: string) => q.extraction.get(snapshotId)?.extraction ?? null,
    /** Changes whenever captures or findings are added or removed. */
    dataVersion: () => {
      const v = q.dataVersion.get()!;
      return `${v.n}:${v.latest ?? ""}:${v.findings}`;
    },
    findings: () => q.findings.all(),
    analysedComparisons: () => new Set(q.analysedComparisons.all().map((r) => r.comparison_id)),

    activeTrends: () => q.activeTrends.all(),
    trendByKey: (key: string) => q.trendByKey.get(key),
    insertTrend: (t: TrendFields & { id: string; category: string }) =>
      q.insertTrend.run(
        t.id,
        t.key,
        t.category,
        t.title,
        t.description,
        t.support,
        t.sampleSize,
        t.share,
        t.direction,
        t.directionBasis,
        t.confidence,
        t.strong ? 1 : 0,
        t.evidence,
        t.at,
        t.at,
      ),
    updateTrend: (t: TrendFields & { rediscoveredAt: string | null }) =>
      q.updateTrend.run(
        t.key,
        t.title,
        t.description,
        t.support,
        t.sampleSize,
        t.share,
        t.direction,
        t.directionBasis,
        t.confidence,
        t.strong ? 1 : 0,
        t.evidence,
        t.rediscoveredAt,
        t.at,
      ),
    deactivateTrend: (key: string, at: string) => q.deactivateTrend.run(at, key),

    componentKeys: () => new Set(q.componentKeys.all().map((r) => `${r.source_key}|${r.kind}|${r.variant}`)),
    insertComponent: (c: ComponentRow) =>
      q.insertComponent.run(
        c.id,
        c.kind,
        c.variant,
        c.style,
        c.name,
        c.file_name,
        c.source_label,
        c.source_key,
        c.snapshot_id,
        c.owner_id,
        c.tokens,
        c.features,
        c.code,
        c.preview_html,
        c.compiled,
        c.created_at,
      ),
    compileStats: () => q.compileStats.get()!,
    component: (id: string) => q.component.get(id),
    untestedPairs: () => q.untestedPairs.all(),
    pair: (sourceKey: string, kind: string) => q.pair.all(sourceKey, kind),

    insertExperiment: (e: {
      id: string;
      name: string;
      kind: string;
      sourceKey: string;
      sourceLabel: string;
      ownerId: string | null;
      ingestKey: string;
      planned: number;
      alpha: number;
      seed: number;
      at: string;
    }) =>
      q.insertExperiment.run(e.id, e.name, e.kind, e.sourceKey, e.sourceLabel, e.ownerId, e.ingestKey, e.planned, e.alpha, e.seed, e.at),
    insertVariant: (v: { id: string; experimentId: string; label: string; componentId: string | null; name: string }) =>
      q.insertVariant.run(v.id, v.experimentId, v.label, v.componentId, v.name),
    activeExperiments: () => q.activeExperiments.all(),
    experiment: (id: string) => q.experiment.get(id),
    variants: (experimentId: string) => q.variants.all(experimentId),
    setSimRate: (variantId: string, rate: number) => q.setSimRate.run(rate, variantId),
    bumpBatches: (experimentId: string) => q.bumpBatches.run(experimentId),
    complete: (id: string, winnerVariantId: string | null, result: string, at: string) =>
      q.complete.run(winnerVariantId, result, at, id).changes === 1,

    prediction: (experimentId: string) => q.prediction.get(experimentId),
    insertPrediction: (p: {
      id: string;
      experimentId: string;
      variantId: string;
      label: string;
      probability: number;
      features: string;
      at: string;
    }) => q.insertPrediction.run(p.id, p.experimentId, p.variantId, p.label, p.probability, p.features, p.at),
    unscoredPredictions: () => q.unscored.all(),
    score: (id: string, outcome: "correct" | "wrong" | "undecided", at: string) => q.score.run(outcome, at, id),
    accuracy: () => q.accuracy.get()!,
    openPredictions: () => q.openPredictions.get()!,
  };
}
export type LoopRepository = ReturnType<typeof loopRepository>;
