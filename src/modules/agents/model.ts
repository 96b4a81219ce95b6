// Mission Control's API shapes (agents, metrics, trends, generated components, A/B tests,
// analytics), declared once. The web client imports the types only.
import { z } from "zod";
import { COMPONENT_KINDS } from "./logic/component-templates";
import { TREND_TYPES } from "./logic/trend-mining";

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

export const agentDto = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(AGENT_TYPES),
  status: z.enum(AGENT_STATUSES),
  currentTask: z.string().nullable(),
  tasksCompleted: z.number(),
  /** Measured, 0..100; null until there is something to measure. */
  accuracy: z.number().nullable(),
  confidence: z.number().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  lastActivity: z.string().nullable(),
});
export type AgentDto = z.infer<typeof agentDto>;

/** AGENT_UPDATE's payload: the changed fields of one agent (spec §4: merged into the agent). */
export type AgentUpdate = Partial<Omit<AgentDto, "id" | "name" | "type">> & { id: string };

export const metricsDto = z.object({
  totalTrends: z.number(),
  totalComponents: z.number(),
  activeTests: z.number(),
  /** Prediction accuracy: correct / decided InsightOracle predictions, in %; null until one is decided. */
  averageAccuracy: z.number().nullable(),
  decidedPredictions: z.number(),
  correctPredictions: z.number(),
  /** How many of the decided predictions were decided on simulated visitors (not a measurement of real users). */
  simulatedDecisions: z.number().optional(),
});
export type MetricsDto = z.infer<typeof metricsDto>;

// ---- trends ---------------------------------------------------------------------------------
export const trendEvidenceDto = z.object({
  /** The site: host and path of the captured URL (two pages on one host are two sites). */
  host: z.string(),
  capturedAt: z.string(),
  /** The comparisons this viewer may open that captured the site. */
  comparisonIds: z.array(z.string()),
});
export type TrendEvidenceDto = z.infer<typeof trendEvidenceDto>;

export const trendDto = z.object({
  id: z.string(),
  key: z.string(),
  type: z.enum(TREND_TYPES),
  title: z.string(),
  description: z.string(),
  /** Sites showing the pattern. */
  support: z.number(),
  /** Sites where the feature could be measured. */
  sampleSize: z.number(),
  share: z.number(),
  direction: z.enum(["rising", "falling", "steady"]).nullable(),
  directionBasis: z.object({ earlyShare: z.number(), lateShare: z.number(), earlyN: z.number(), lateN: z.number() }).nullable(),
  /** 0..100 */
  confidence: z.number(),
  /** Confidence at or above the AI detection confidence setting. */
  strong: z.boolean(),
  /** Admins see every site; a user sees only sites from their own comparisons. Live messages carry none. */
  evidence: z.array(trendEvidenceDto),
  evidenceScope: z.enum(["all", "yours", "none"]),
  discoveredAt: z.string(),
  updatedAt: z.string(),
});
export type TrendDto = z.infer<typeof trendDto>;

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
    .array(z.string().trim().min(2, "Keywords must be 2 to 40 characters").max(40, "Keywords must be 2 to 40 characters"))
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
export const componentKindSchema = z.enum(COMPONENT_KINDS);
export const variantLabelSchema = z.enum(["A", "B"]);

export const designTokensSchema = z.object({
  primary: z.string(),
  onPrimary: z.string(),
  background: z.string(),
  surface: z.string(),
  text: z.string(),
  muted: z.string(),
  /** A font stack that is safe to print inside a string literal. */
  fontFamily: z.string(),
  radius: z.number(),
  space: z.number(),
});
export type DesignTokens = z.infer<typeof designTokensSchema>;

export const designFeaturesSchema = z.object({
  /** WCAG contrast of the main call to action's label against its fill (or the page, when outlined). */
  ctaContrast: z.number(),
  /** 1 when the call to action is a filled button. */
  ctaSolid: z.number(),
  /** Vertical padding of the call to action in px: a bigger tap target. */
  ctaPaddingPx: z.number(),
  radiusPx: z.number(),
  spaceUnitPx: z.number(),
  /** 1 when the content is centred. */
  centered: z.number(),
  /** 1 when the variant adds a highlight (badge, accent header). */
  emphasis: z.number(),
});
export type DesignFeatures = z.infer<typeof designFeaturesSchema>;

export const componentDto = z.object({
  id: z.string(),
  kind: componentKindSchema,
  kindLabel: z.string(),
  variant: variantLabelSchema,
  style: z.string(),
  name: z.string(),
  fileName: z.string(),
  sourceLabel: z.string(),
  sourceKind: z.enum(["site", "default"]),
  tokens: designTokensSchema,
  features: designFeaturesSchema,
  /** TSX source. */
  code: z.string(),
  /** Static markup of the component with its default props (shown in a sandboxed frame). */
  previewHtml: z.string(),
  compiled: z.boolean(),
  createdAt: z.string(),
});
export type ComponentDto = z.infer<typeof componentDto>;

// ---- A/B tests ------------------------------------------------------------------------------
export const experimentStatusSchema = z.enum(["active", "completed"]);
export type ExperimentStatus = z.infer<typeof experimentStatusSchema>;
export const trafficSourceSchema = z.enum(["pending", "real", "simulated"]);
export type TrafficSource = z.infer<typeof trafficSourceSchema>;

export const variantDto = z.object({
  id: z.string(),
  label: variantLabelSchema,
  name: z.string(),
  componentId: z.string().nullable(),
  impressions: z.number(),
  conversions: z.number(),
  rate: z.number(),
});
export type VariantDto = z.infer<typeof variantDto>;

export const predictionDto = z.object({
  label: variantLabelSchema,
  probability: z.number(),
  outcome: z.enum(["correct", "wrong", "undecided"]).nullable(),
  createdAt: z.string(),
});
export type PredictionDto = z.infer<typeof predictionDto>;

export const abResultSchema = z.object({
  rateA: z.number(),
  rateB: z.number(),
  /** rateB - rateA */
  difference: z.number(),
  /** 95% (1 - alpha) Wald interval of the difference. */
  differenceInterval: z.tuple([z.number(), z.number()]),
  /** (rateB - rateA) / rateA; null when A converted nobody. */
  uplift: z.number().nullable(),
  /** The difference interval relative to rateA. */
  upliftInterval: z.tuple([z.number(), z.number()]).nullable(),
  z: z.number(),
  pValue: z.number(),
  alpha: z.number(),
  significant: z.boolean(),
  /** P(rate B > rate A | data). */
  chanceBBeatsA: z.number(),
});
export type AbResult = z.infer<typeof abResultSchema>;

export const experimentDto = z.object({
  id: z.string(),
  name: z.string(),
  kind: componentKindSchema,
  sourceLabel: z.string(),
  status: experimentStatusSchema,
  traffic: trafficSourceSchema,
  /** True when the seeded visitor simulator supplied the traffic. */
  simulated: z.boolean(),
  plannedPerVariant: z.number(),
  alpha: z.number(),
  stoppingRule: z.string(),
  variants: z.array(variantDto),
  /** Current statistics; final once completed. */
  stats: abResultSchema,
  winner: z.object({ variantId: z.string(), label: variantLabelSchema }).nullable(),
  prediction: predictionDto.nullable(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  /** Only for the owner and admins: the key POST /api/tests/{id}/events accepts. */
  ingestKey: z.string().optional(),
});
export type ExperimentDto = z.infer<typeof experimentDto>;

// ---- analytics ------------------------------------------------------------------------------
export const analyticsDto = z.object({
  range: z.enum(["48h", "30d"]),
  bucket: z.enum(["hour", "day"]),
  traffic: z.array(
    z.object({
      bucket: z.string(),
      testsStarted: z.number(),
      testsCompleted: z.number(),
      impressions: z.number(),
      conversions: z.number(),
      simulatedImpressions: z.number(),
    }),
  ),
  accuracy: z.array(z.object({ at: z.string(), accuracy: z.number(), decided: z.number() })),
  similarity: z.object({
    scope: z.enum(["all", "yours"]),
    buckets: z.array(z.object({ from: z.number(), to: z.number(), count: z.number() })),
    total: z.number(),
    mean: z.number().nullable(),
  }),
});
export type AnalyticsDto = z.infer<typeof analyticsDto>;

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

/** POST /api/tests/{id}/events: the optional key a site's backend sends instead of a sign-in. */
export const ingestHeaders = z.object({ "x-ingest-key": z.string().optional() });
