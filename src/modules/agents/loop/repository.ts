// Everything the agents read and write. Runs on the agents worker's own connection (or the main
// connection in-process); the comparisons tables are only ever read here.
import type { SqlDb } from "#server/db/sql";
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

export function loopRepository(db: SqlDb) {
  return {
    agent: (id: string) => db.one<AgentRow>("SELECT * FROM agents WHERE id = $1", [id]),
    saveAgent: (r: AgentRow) =>
      db.run(
        "UPDATE agents SET status = $1, current_task = $2, tasks_completed = $3, accuracy = $4, confidence = $5, metadata = $6, last_activity = $7 WHERE id = $8",
        [r.status, r.current_task, r.tasks_completed, r.accuracy, r.confidence, r.metadata, r.last_activity, r.id],
      ),
    setting: async (key: string) => (await db.one<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key]))?.value ?? null,

    desktopSnapshots: () =>
      db.all<SnapshotSourceRow>(
        `SELECT s.id AS snapshot_id, s.comparison_id, s.owner_id, s.target_id, s.captured_at, t.url
         FROM snapshots s JOIN targets t ON t.id = s.target_id
         WHERE s.viewport = 'desktop' ORDER BY s.captured_at DESC, s.id DESC LIMIT $1`,
        [MAX_MINED_SNAPSHOTS],
      ),
    extraction: async (snapshotId: string) =>
      (await db.one<{ extraction: string }>("SELECT extraction FROM snapshots WHERE id = $1", [snapshotId]))?.extraction ?? null,
    /** Changes whenever captures or findings are added or removed. */
    dataVersion: async () => {
      const v = (await db.one<{ n: number; latest: string | null; findings: number }>(
        "SELECT (SELECT COUNT(*) FROM snapshots) AS n, (SELECT MAX(captured_at) FROM snapshots) AS latest, (SELECT COUNT(*) FROM findings) AS findings",
      ))!;
      return `${v.n}:${v.latest ?? ""}:${v.findings}`;
    },
    findings: () => db.all<{ target_id: string; title: string }>("SELECT target_id, title FROM findings"),
    analysedComparisons: async () =>
      new Set((await db.all<{ comparison_id: string }>("SELECT DISTINCT comparison_id FROM findings")).map((r) => r.comparison_id)),

    activeTrends: () => db.all<TrendRow>("SELECT * FROM trends WHERE active = TRUE"),
    trendByKey: (key: string) => db.one<TrendRow>("SELECT * FROM trends WHERE pattern_key = $1", [key]),
    insertTrend: (t: TrendFields & { id: string; category: string }) =>
      db.run(
        `INSERT INTO trends (id, pattern_key, category, title, description, support, sample_size, share, direction, direction_basis, confidence, strong, evidence, active, discovered_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, TRUE, $14, $14)`,
        [
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
          t.strong,
          t.evidence,
          t.at,
        ],
      ),
    updateTrend: (t: TrendFields & { rediscoveredAt: string | null }) =>
      db.run(
        `UPDATE trends SET title = $2, description = $3, support = $4, sample_size = $5, share = $6, direction = $7, direction_basis = $8,
           confidence = $9, strong = $10, evidence = $11, active = TRUE, discovered_at = COALESCE($12, discovered_at), updated_at = $13
         WHERE pattern_key = $1`,
        [
          t.key,
          t.title,
          t.description,
          t.support,
          t.sampleSize,
          t.share,
          t.direction,
          t.directionBasis,
          t.confidence,
          t.strong,
          t.evidence,
          t.rediscoveredAt,
          t.at,
        ],
      ),
    deactivateTrend: (key: string, at: string) =>
      db.run("UPDATE trends SET active = FALSE, updated_at = $1 WHERE pattern_key = $2", [at, key]),

    componentKeys: async () =>
      new Set(
        (await db.all<{ source_key: string; kind: string; variant: string }>("SELECT source_key, kind, variant FROM components")).map(
          (r) => `${r.source_key}|${r.kind}|${r.variant}`,
        ),
      ),
    insertComponent: (c: ComponentRow) =>
      db.run(
        `INSERT INTO components (id, kind, variant, style, name, file_name, source_label, source_key, snapshot_id, owner_id, tokens, features, code, preview_html, compiled, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [
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
          c.compiled === 1,
          c.created_at,
        ],
      ),
    compileStats: async () =>
      (await db.one<{ total: number; ok: number }>(
        `SELECT COUNT(*) AS total, ${db.dialect.countWhere("compiled")} AS ok FROM components`,
      ))!,
    component: (id: string) => db.one<ComponentRow>("SELECT * FROM components WHERE id = $1", [id]),
    untestedPairs: () =>
      db.all<{ source_key: string; kind: string }>(
        `SELECT c.source_key, c.kind FROM components c
         WHERE NOT EXISTS (SELECT 1 FROM experiments e WHERE e.source_key = c.source_key AND e.kind = c.kind)
         GROUP BY c.source_key, c.kind HAVING COUNT(DISTINCT c.variant) = 2
         ORDER BY MIN(c.created_at)`,
      ),
    pair: (sourceKey: string, kind: string) =>
      db.all<ComponentRow>("SELECT * FROM components WHERE source_key = $1 AND kind = $2 ORDER BY variant", [sourceKey, kind]),

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
      db.run(
        `INSERT INTO experiments (id, name, kind, source_key, source_label, owner_id, ingest_key, planned_per_variant, alpha, sim_seed, started_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [e.id, e.name, e.kind, e.sourceKey, e.sourceLabel, e.ownerId, e.ingestKey, e.planned, e.alpha, e.seed, e.at],
      ),
    insertVariant: (v: { id: string; experimentId: string; label: string; componentId: string | null; name: string }) =>
      db.run("INSERT INTO experiment_variants (id, experiment_id, label, component_id, name) VALUES ($1, $2, $3, $4, $5)", [
        v.id,
        v.experimentId,
        v.label,
        v.componentId,
        v.name,
      ]),
    activeExperiments: () => db.all<ExperimentRow>("SELECT * FROM experiments WHERE status = 'active' ORDER BY started_at, id"),
    experiment: (id: string) => db.one<ExperimentRow>("SELECT * FROM experiments WHERE id = $1", [id]),
    variants: (experimentId: string) =>
      db.all<VariantRow>("SELECT * FROM experiment_variants WHERE experiment_id = $1 ORDER BY label", [experimentId]),
    setSimRate: (variantId: string, rate: number) =>
      db.run("UPDATE experiment_variants SET sim_rate = $1 WHERE id = $2", [rate, variantId]),
    bumpBatches: (experimentId: string) => db.run("UPDATE experiments SET sim_batches = sim_batches + 1 WHERE id = $1", [experimentId]),
    complete: async (id: string, winnerVariantId: string | null, result: string, at: string) =>
      (await db.run(
        "UPDATE experiments SET status = 'completed', winner_variant_id = $1, result = $2, completed_at = $3 WHERE id = $4 AND status = 'active'",
        [winnerVariantId, result, at, id],
      )) === 1,

    prediction: (experimentId: string) => db.one<PredictionRow>("SELECT * FROM predictions WHERE experiment_id = $1", [experimentId]),
    insertPrediction: (p: {
      id: string;
      experimentId: string;
      variantId: string;
      label: string;
      probability: number;
      features: string;
      at: string;
    }) =>
      db.run(
        "INSERT INTO predictions (id, experiment_id, predicted_variant_id, predicted_label, probability, features, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [p.id, p.experimentId, p.variantId, p.label, p.probability, p.features, p.at],
      ),
    unscoredPredictions: () =>
      db.all<PredictionRow & { winner_variant_id: string | null; experiment_name: string; owner_id: string | null }>(
        `SELECT p.*, e.winner_variant_id, e.name AS experiment_name, e.owner_id FROM predictions p JOIN experiments e ON e.id = p.experiment_id
         WHERE p.outcome IS NULL AND e.status = 'completed' ORDER BY e.completed_at, e.id`,
      ),
    score: (id: string, outcome: "correct" | "wrong" | "undecided", at: string) =>
      db.run("UPDATE predictions SET outcome = $1, scored_at = $2 WHERE id = $3", [outcome, at, id]),
    accuracy: async () =>
      (await db.one<{ correct: number; decided: number }>(
        `SELECT ${db.dialect.countWhere("outcome = 'correct'")} AS correct, ${db.dialect.countWhere("outcome IN ('correct', 'wrong')")} AS decided FROM predictions`,
      ))!,
    openPredictions: async () =>
      (await db.one<{ n: number; avg: number | null }>(
        "SELECT COUNT(*) AS n, AVG(p.probability) AS avg FROM predictions p JOIN experiments e ON e.id = p.experiment_id WHERE e.status = 'active'",
      ))!,
  };
}
export type LoopRepository = ReturnType<typeof loopRepository>;
