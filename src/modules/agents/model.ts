// Mission Control's API shapes (agents, metrics, trends, generated components, A/B tests,
// analytics), declared once. The web client imports the types only.
import { z } from "zod";
import type { AbResult } from "./logic/ab-stats";
import type { ComponentKind, DesignFeatures, VariantLabel } from "./logic/component-templates";
import type { DesignTokens } from "./logic/design-tokens";
import { TREND_TYPES, type TrendType } from "./logic/trend-mining";

export const AGENT_TYPES = ["trend_detection", "component_generation", "testing", "analytics"] as const;
export type AgentType = (typeof AGENT_TYPES)[number];
export const AGENT_STATUSES = ["active", "idle", "error", "stopped"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const AGENT_IDS = {
  trendHunter: "trend-hunter",
  designNinja: "design-ninja",
  testCommander: "test-commander",
  insightOracle: "insight-oracle",
} as const;
export type AgentId = (typeof AGENT_IDS)[keyof typeof AGENT_IDS];

export interface AgentDto {
  id: string;
  name: string;
  type: AgentType;
  status: AgentStatus;
  currentTask: string | null;
  tasksCompleted: number;
  /** Measured, 0..100; null until there is something to measure. */
  accuracy: number | null;
  confidence: number | null;
  metadata: Record<string, unknown>;
  lastActivity: string | null;
}

/** AGENT_UPDATE's payload: the changed fields of one agent (spec §4: merged into the agent). */
export type AgentUpdate = Partial<Omit<AgentDto, "id" | "name" | "type">> & { id: string };

export interface MetricsDto {
  totalTrends: number;
  totalComponents: number;
  activeTests: number;
  /** Prediction accuracy: correct / decided InsightOracle predictions, in %; null until one is decided. */
  averageAccuracy: number | null;
  decidedPredictions: number;
  correctPredictions: number;
}

// ---- trends ---------------------------------------------------------------------------------
export interface TrendEvidenceDto {
  /** The site: host and path of the captured URL (two pages on one host are two sites). */
  host: string;
  capturedAt: string;
  /** The comparisons this viewer may open that captured the site. */
  comparisonIds: string[];
}

export interface TrendDto {
  id: string;
  key: string;
  type: TrendType;
  title: string;
  description: string;
  /** Sites showing the pattern. */
  support: number;
  /** Sites where the feature could be measured. */
  sampleSize: number;
  share: number;
  direction: "rising" | "falling" | "steady" | null;
  directionBasis: { earlyShare: number; lateShare: number; earlyN: number; lateN: number } | null;
  /** 0..100 */
  confidence: number;
  /** Confidence at or above the AI detection confidence setting. */
  strong: boolean;
  /** Admins see every site; a user sees only sites from their own comparisons. Live messages carry none. */
  evidence: TrendEvidenceDto[];
  evidenceScope: "all" | "yours" | "none";
  discoveredAt: string;
  updatedAt: string;
}

export const TREND_SOURCES = ["snapshots", "findings"] as const;

export const trendSettings = z.object({
  sources: z.array(z.enum(TREND_SOURCES, { error: "Unknown trend source" })).min(1, "Pick at least one source"),
  frequency: z
    .number({ error: "Frequency must be a number of seconds" })
    .int("Frequency must be a whole number of seconds")
    .min(10, "Frequency must be between 10 and 86400 seconds")
    .max(86400, "Frequency must be between 10 and 86400 seconds"),
  confidenceThreshold: z
    .number({ error: "Confidence threshold must be a number" })
    .int("Confidence threshold must be a whole number")
    .min(50, "Confidence threshold must be between 50 and 99")
    .max(99, "Confidence threshold must be between 50 and 99"),
  maxResults: z
    .number({ error: "Max results must be a number" })
    .int("Max results must be a whole number")
    .min(1, "Max results must be between 1 and 100")
    .max(100, "Max results must be between 1 and 100"),
  aiDetectionConfidence: z
    .number({ error: "AI detection confidence must be a number" })
    .int("AI detection confidence must be a whole number")
    .min(50, "AI detection confidence must be between 50 and 100")
    .max(100, "AI detection confidence must be between 50 and 100"),
  customKeywords: z
    .array(
      z
        .string()
        .trim()
        .min(2, "Keywords must be 2 to 40 characters")
        .max(40, "Keywords must be 2 to 40 characters"),
    )
    .max(10, "At most 10 custom keywords"),
  trendTypes: z.array(z.enum(TREND_TYPES, { error: "Unknown trend type" })).min(1, "Pick at least one trend type"),
});
export type TrendSettings = z.infer<typeof trendSettings>;

/** Spec §3: frequency 30, confidence threshold 70, max results 20, AI detection confidence 80. */
export const DEFAULT_TREND_SETTINGS: TrendSettings = {
  sources: ["snapshots", "findings"],
  frequency: 30,
  confidenceThreshold: 70,
  maxResults: 20,
  aiDetectionConfidence: 80,
  customKeywords: [],
  trendTypes: [...TREND_TYPES],
};

// ---- generated components -------------------------------------------------------------------
export interface ComponentDto {
  id: string;
  kind: ComponentKind;
  kindLabel: string;
  variant: VariantLabel;
  style: string;
  name: string;
  fileName: string;
  sourceLabel: string;
  sourceKind: "site" | "default";
  tokens: DesignTokens;
  features: DesignFeatures;
  /** TSX source. */
  code: string;
  /** Static markup of the component with its default props (shown in a sandboxed frame). */
  previewHtml: string;
  compiled: boolean;
  createdAt: string;
}

// ---- A/B tests ------------------------------------------------------------------------------
export type ExperimentStatus = "active" | "completed";
export type TrafficSource = "pending" | "real" | "simulated";

export interface VariantDto {
  id: string;
  label: VariantLabel;
  name: string;
  componentId: string | null;
  impressions: number;
  conversions: number;
  rate: number;
}

export interface PredictionDto {
  label: VariantLabel;
  probability: number;
  outcome: "correct" | "wrong" | "undecided" | null;
  createdAt: string;
}

export interface ExperimentDto {
  id: string;
  name: string;
  kind: ComponentKind;
  sourceLabel: string;
  status: ExperimentStatus;
  traffic: TrafficSource;
  /** True when the seeded visitor simulator supplied the traffic. */
  simulated: boolean;
  plannedPerVariant: number;
  alpha: number;
  stoppingRule: string;
  variants: VariantDto[];
  /** Current statistics; final once completed. */
  stats: AbResult;
  winner: { variantId: string; label: VariantLabel } | null;
  prediction: PredictionDto | null;
  startedAt: string;
  completedAt: string | null;
  /** Only for the owner and admins: the key POST /api/tests/{id}/events accepts. */
  ingestKey?: string;
}

// ---- analytics ------------------------------------------------------------------------------
export interface AnalyticsDto {
  range: "48h" | "30d";
  bucket: "hour" | "day";
  traffic: { bucket: string; testsStarted: number; testsCompleted: number; impressions: number; conversions: number; simulatedImpressions: number }[];
  accuracy: { at: string; accuracy: number; decided: number }[];
  similarity: { scope: "all" | "yours"; buckets: { from: number; to: number; count: number }[]; total: number; mean: number | null };
}

// ---- inputs ---------------------------------------------------------------------------------
const limitField = (def: number) =>
  z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be between 1 and 100")
    .max(100, "limit must be between 1 and 100")
    .default(def);

export const trendsQuery = z.object({ limit: limitField(20) });
export const componentsQuery = z.object({ limit: limitField(10) });
export const testsQuery = z.object({
  status: z.enum(["active", "completed"], { error: "status must be active or completed" }).optional(),
  limit: limitField(20),
});
export const analyticsQuery = z.object({ range: z.enum(["48h", "30d"], { error: "range must be 48h or 30d" }).default("48h") });

export const ingestBody = z.object({
  variant: z.enum(["A", "B"], { error: "variant must be A or B" }),
  event: z.enum(["impression", "conversion"], { error: "event must be impression or conversion" }),
  count: z
    .number({ error: "count must be a number" })
    .int("count must be a whole number")
    .min(1, "count must be between 1 and 1000")
    .max(1000, "count must be between 1 and 1000")
    .default(1),
});
export type IngestInput = z.infer<typeof ingestBody>;

export interface Viewer {
  id: string;
  role: "user" | "admin";
}
