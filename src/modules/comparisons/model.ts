// Request and response shapes of the comparisons API, declared once. The server validates with
// these; the web client imports the types only.
import { z } from "zod";
import { pageDto } from "#server/modules/pages/model";
import {
  colorSchemeSchema,
  consentPolicySchema,
  consentRecordSchema,
  extractionSchema,
  findingSchema,
  pageRoleSchema,
  similarityScoresSchema,
  stepFailureSchema,
  viewportSchema,
} from "#server/modules/capture/model";

/** The colour schemes a comparison's runs capture in: light only, or light and dark. */
export const colorSchemesSchema = z
  .array(colorSchemeSchema, { error: 'Colour schemes are ["light"] or ["light", "dark"]' })
  .min(1, 'Colour schemes are ["light"] or ["light", "dark"]')
  .max(2)
  .refine((l) => l[0] === "light" && new Set(l).size === l.length, 'Colour schemes are ["light"] or ["light", "dark"]');

export const createComparisonBody = z.object({
  name: z
    .string({ error: "Comparison name is required" })
    .trim()
    .min(1, "Comparison name is required")
    .max(100, "Name must be under 100 characters"),
  description: z
    .string()
    .trim()
    .max(500, "Description must be under 500 characters")
    .optional()
    .nullable()
    .transform((v) => (v ? v : null)),
});
export type CreateComparisonInput = z.infer<typeof createComparisonBody>;

/** PATCH /comparisons/{id}: the comparison's capture settings; each field is optional, one at least. */
export const updateComparisonBody = z
  .object({
    /** What captures do about a consent banner: reject (the least-tracking choice), accept, or keep it on screen. */
    consent: consentPolicySchema.optional(),
    /** The colour schemes runs capture each page in (`prefers-color-scheme`): ["light"] or ["light", "dark"]. */
    colorSchemes: colorSchemesSchema.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, "Nothing to change: send consent or colorSchemes");
export type UpdateComparisonInput = z.infer<typeof updateComparisonBody>;

/** Only absolute http(s) URLs with a host can be captured. */
export function isHttpUrl(raw: string): boolean {
  if (!URL.canParse(raw)) return false;
  const u = new URL(raw);
  return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
}

export const addTargetBody = z.object({
  url: z
    .string({ error: "Please enter a valid URL" })
    .trim()
    .min(1, "Please enter a valid URL")
    .max(2048, "Please enter a valid URL")
    .refine(isHttpUrl, "Please enter a valid URL"),
  label: z.string({ error: "Label is required" }).trim().min(1, "Label is required").max(50, "Label must be under 50 characters"),
});
export type AddTargetInput = z.infer<typeof addTargetBody>;

export const exportQuery = z.object({
  format: z.enum(["json", "html"], { error: "Format must be json or html" }).default("json"),
});
export type ExportFormat = z.infer<typeof exportQuery>["format"];

export const comparisonStatusSchema = z.enum(["pending", "running", "completed", "failed"]);
export type ComparisonStatus = z.infer<typeof comparisonStatusSchema>;
export const targetStatusSchema = z.enum(["pending", "capturing", "completed", "failed"]);
export type TargetStatus = z.infer<typeof targetStatusSchema>;

/** Pages captured (or given up on) of all pages in the run; stage says what is happening now. */
export const comparisonProgressSchema = z.object({ done: z.number(), total: z.number(), stage: z.string() });
export type ComparisonProgress = z.infer<typeof comparisonProgressSchema>;

export const comparisonDto = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: comparisonStatusSchema,
  /** Why a run failed, when it did. */
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  targetCount: z.number(),
  progress: comparisonProgressSchema.nullable(),
  /** What the next run's captures do about a consent banner (PATCH to change). */
  consent: consentPolicySchema,
  /** The colour schemes the next run captures each page in (PATCH to change). */
  colorSchemes: z.array(colorSchemeSchema),
});
export type ComparisonDto = z.infer<typeof comparisonDto>;

export const targetDto = z.object({
  id: z.string(),
  comparisonId: z.string(),
  label: z.string(),
  url: z.string(),
  status: targetStatusSchema,
  /** failed: why no page of the site was captured; completed: the pages that were not ("Not captured: /pricing desktop: …"), or null. */
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type TargetDto = z.infer<typeof targetDto>;

/** The spec's Snapshot plus what the extraction measured. */
export const snapshotDto = z.object({
  id: z.string(),
  targetId: z.string(),
  // Always answered; optional in the type only so that callers built before pages still compile
  // (absent reads as the home page, light, no failed step).
  /** The page of the site captured, its role and its path; null only for a capture from before pages. */
  pageId: z.string().nullable().optional(),
  role: pageRoleSchema.optional(),
  path: z.string().nullable().optional(),
  colorScheme: colorSchemeSchema.optional(),
  /** Where the page's steps stopped, when one failed (index counted from 1); null otherwise. */
  step: stepFailureSchema.nullable().optional(),
  capturedAt: z.string(),
  viewport: viewportSchema,
  /** Owner-only URL: /api/snapshots/{id}/screenshot */
  screenshotUrl: z.string(),
  title: z.string(),
  /** Hex strings, most prominent first. */
  colors: z.array(z.string()),
  width: z.number(),
  height: z.number(),
  /** What the capture did about a consent banner; null for a capture made before consent handling. */
  consent: consentRecordSchema.nullable(),
  /** Null for a page whose steps stopped (`step`): its screenshot shows where, and nothing was measured. */
  extraction: extractionSchema.nullable(),
});
export type SnapshotDto = z.infer<typeof snapshotDto>;

export const diffDto = similarityScoresSchema.extend({
  id: z.string(),
  comparisonId: z.string(),
  viewport: viewportSchema,
  /** Diffs compare the pages of one role of two sites (pricing with pricing), in one colour scheme (always answered; absent: home, light). */
  role: pageRoleSchema.optional(),
  colorScheme: colorSchemeSchema.optional(),
  targetAId: z.string(),
  targetBId: z.string(),
  pageAId: z.string().nullable().optional(),
  pageBId: z.string().nullable().optional(),
  createdAt: z.string(),
  /** The parts behind the blend, for the summary's detail view. */
  components: z.record(z.string(), z.number()),
});
export type DiffDto = z.infer<typeof diffDto>;

export const findingDto = findingSchema.extend({
  /** The page the finding is about, its role, and the colour scheme it was captured in (always answered; absent: home, light). */
  pageId: z.string().nullable().optional(),
  role: pageRoleSchema.optional(),
  colorScheme: colorSchemeSchema.optional(),
});
export type FindingDto = z.infer<typeof findingDto>;

/** Pushed over /ws to the comparison's owner only. */
export interface ComparisonProgressMessage {
  comparisonId: string;
  status: ComparisonStatus;
  progress: ComparisonProgress | null;
  targetId?: string;
  targetStatus?: TargetStatus;
}

/** GET /api/comparisons/{id}/export?format=json */
export const comparisonReport = z.object({
  exportedAt: z.string(),
  comparison: comparisonDto,
  targets: z.array(targetDto),
  snapshots: z.array(snapshotDto),
  diffs: z.array(diffDto),
  findings: z.array(findingDto),
  /** Every page of the comparison's sites (home first per site); absent in a report from a server before pages. */
  pages: z.array(pageDto).optional(),
});
export type ComparisonReport = z.infer<typeof comparisonReport>;

/** Who asked for a run: a person (or API key), or the comparison's schedule. */
export const runTrigger = z.enum(["manual", "schedule"]);
export type RunTrigger = z.infer<typeof runTrigger>;

/** A comparison's schedule as it is answered (the watch module owns setting and firing it). */
export const scheduleView = z.object({
  cron: z.string(),
  timezone: z.string(),
  /** ISO 8601 instant; null once the pattern can never fire again. */
  nextRunAt: z.string().nullable(),
});
export type ScheduleView = z.infer<typeof scheduleView>;
