// Row shapes of migration 0003 and their API forms, shared by the read repository (main thread)
// and the agent loop's repository (agents worker).
import { compareArms } from "./logic/ab-stats";
import { KIND_LABELS, type ComponentKind, type DesignFeatures, type VariantLabel } from "./logic/component-templates";
import type { DesignTokens } from "./logic/design-tokens";
import type { EvidenceItem, TrendType } from "./logic/trend-mining";
import type { AgentDto, ComponentDto, ExperimentDto, PredictionDto, TrendDto, Viewer } from "./model";

export interface AgentRow {
  id: string;
  name: string;
  type: AgentDto["type"];
  status: AgentDto["status"];
  current_task: string | null;
  tasks_completed: number;
  accuracy: number | null;
  confidence: number | null;
  metadata: string;
  last_activity: string | null;
}

export interface TrendRow {
  id: string;
  pattern_key: string;
  category: TrendType;
  title: string;
  description: string;
  support: number;
  sample_size: number;
  share: number;
  direction: TrendDto["direction"];
  direction_basis: string;
  confidence: number;
  strong: number;
  evidence: string;
  active: number;
  discovered_at: string;
  updated_at: string;
}

export interface ComponentRow {
  id: string;
  kind: ComponentKind;
  variant: VariantLabel;
  style: string;
  name: string;
  file_name: string;
  source_label: string;
  source_key: string;
  snapshot_id: string | null;
  owner_id: string | null;
  tokens: string;
  features: string;
  code: string;
  preview_html: string;
  compiled: number;
  created_at: string;
}

export interface ExperimentRow {
  id: string;
  name: string;
  kind: ComponentKind;
  source_key: string;
  source_label: string;
  owner_id: string | null;
  status: "active" | "completed";
  traffic: "pending" | "real" | "simulated";
  ingest_key: string;
  planned_per_variant: number;
  alpha: number;
  sim_seed: number;
  sim_batches: number;
  winner_variant_id: string | null;
  result: string | null;
  started_at: string;
  completed_at: string | null;
}

export interface VariantRow {
  id: string;
  experiment_id: string;
  label: VariantLabel;
  component_id: string | null;
  name: string;
  impressions: number;
  conversions: number;
  sim_rate: number | null;
}

export interface PredictionRow {
  id: string;
  experiment_id: string;
  predicted_variant_id: string;
  predicted_label: VariantLabel;
  probability: number;
  features: string;
  outcome: PredictionDto["outcome"];
  created_at: string;
  scored_at: string | null;
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export const agentToDto = (r: AgentRow): AgentDto => ({
  id: r.id,
  name: r.name,
  type: r.type,
  status: r.status,
  currentTask: r.current_task,
  tasksCompleted: r.tasks_completed,
  accuracy: r.accuracy,
  confidence: r.confidence,
  metadata: parseJson<Record<string, unknown>>(r.metadata, {}),
  lastActivity: r.last_activity,
});

/** Evidence scoped to the viewer: admins see all sites, users only the ones their comparisons captured. */
export function trendToDto(r: TrendRow, viewer: Viewer | null): TrendDto {
  const items = parseJson<EvidenceItem[]>(r.evidence, []);
  let evidence: TrendDto["evidence"] = [];
  let evidenceScope: TrendDto["evidenceScope"] = "none";
  if (viewer?.role === "admin") {
    evidenceScope = "all";
    evidence = items.map((e) => ({ host: e.host, capturedAt: e.capturedAt, comparisonIds: e.refs.map((x) => x.comparisonId) }));
  } else if (viewer) {
    evidenceScope = "yours";
    evidence = items
      .map((e) => ({
        host: e.host,
        capturedAt: e.capturedAt,
        comparisonIds: e.refs.filter((x) => x.ownerId === viewer.id).map((x) => x.comparisonId),
      }))
      .filter((e) => e.comparisonIds.length > 0);
  }
  return {
    id: r.id,
    key: r.pattern_key,
    type: r.category,
    title: r.title,
    description: r.description,
    support: r.support,
    sampleSize: r.sample_size,
    share: r.share,
    direction: r.direction,
    directionBasis: parseJson<TrendDto["directionBasis"]>(r.direction_basis, null),
    confidence: r.confidence,
    strong: r.strong === 1,
    evidence,
    evidenceScope,
    discoveredAt: r.discovered_at,
    updatedAt: r.updated_at,
  };
}

export const componentToDto = (r: ComponentRow): ComponentDto => ({
  id: r.id,
  kind: r.kind,
  kindLabel: KIND_LABELS[r.kind],
  variant: r.variant,
  style: r.style,
  name: r.name,
  fileName: r.file_name,
  sourceLabel: r.source_label,
  sourceKind: r.source_key === "default" ? "default" : "site",
  tokens: parseJson<DesignTokens>(r.tokens, {} as DesignTokens),
  features: parseJson<DesignFeatures>(r.features, {} as DesignFeatures),
  code: r.code,
  previewHtml: r.preview_html,
  compiled: r.compiled === 1,
  createdAt: r.created_at,
});

export const stoppingRule = (planned: number, alpha: number) =>
  `Fixed horizon: runs until each variant has ${planned.toLocaleString("en-US")} visitors, then one two-sided two-proportion z-test at α = ${alpha} decides. Interim numbers never stop a test early.`;

export function experimentToDto(
  r: ExperimentRow,
  variants: VariantRow[],
  prediction: PredictionRow | null,
  opts: { withKey: boolean },
): ExperimentDto {
  const sorted = [...variants].sort((a, b) => a.label.localeCompare(b.label));
  const a = sorted.find((v) => v.label === "A");
  const b = sorted.find((v) => v.label === "B");
  const stats = compareArms(
    { impressions: a?.impressions ?? 0, conversions: a?.conversions ?? 0 },
    { impressions: b?.impressions ?? 0, conversions: b?.conversions ?? 0 },
    r.alpha,
  );
  const winner = r.winner_variant_id ? sorted.find((v) => v.id === r.winner_variant_id) : undefined;
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    sourceLabel: r.source_label,
    status: r.status,
    traffic: r.traffic,
    simulated: r.traffic === "simulated",
    plannedPerVariant: r.planned_per_variant,
    alpha: r.alpha,
    stoppingRule: stoppingRule(r.planned_per_variant, r.alpha),
    variants: sorted.map((v) => ({
      id: v.id,
      label: v.label,
      name: v.name,
      componentId: v.component_id,
      impressions: v.impressions,
      conversions: v.conversions,
      rate: v.impressions ? v.conversions / v.impressions : 0,
    })),
    stats,
    winner: winner ? { variantId: winner.id, label: winner.label } : null,
    prediction: prediction
      ? {
          label: prediction.predicted_label,
          probability: prediction.probability,
          outcome: prediction.outcome,
          createdAt: prediction.created_at,
        }
      : null,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    ...(opts.withKey ? { ingestKey: r.ingest_key } : {}),
  };
}
