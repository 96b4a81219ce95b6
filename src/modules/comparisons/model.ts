// Request and response shapes of the comparisons API, declared once. The server validates with
// these; the web client imports the types only.
import { z } from "zod";
import type { Extraction, Finding, SimilarityScores, Viewport } from "../capture/model";

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
  label: z
    .string({ error: "Label is required" })
    .trim()
    .min(1, "Label is required")
    .max(50, "Label must be under 50 characters"),
});
export type AddTargetInput = z.infer<typeof addTargetBody>;

export const exportQuery = z.object({
  format: z.enum(["json", "html"], { error: "Format must be json or html" }).default("json"),
});
export type ExportFormat = z.infer<typeof exportQuery>["format"];

export type ComparisonStatus = "pending" | "running" | "completed" | "failed";
export type TargetStatus = "pending" | "capturing" | "completed" | "failed";

export interface ComparisonDto {
  id: string;
  name: string;
  description: string | null;
  status: ComparisonStatus;
  /** Why a run failed, when it did. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  targetCount: number;
  progress: ComparisonProgress | null;
}

/** Pages captured (or given up on) of all pages in the run; stage says what is happening now. */
export interface ComparisonProgress {
  done: number;
  total: number;
  stage: string;
}

export interface TargetDto {
  id: string;
  comparisonId: string;
  label: string;
  url: string;
  status: TargetStatus;
  error: string | null;
  createdAt: string;
}

/** The spec's Snapshot plus what the extraction measured. */
export interface SnapshotDto {
  id: string;
  targetId: string;
  capturedAt: string;
  viewport: Viewport;
  /** Owner-only URL: /api/snapshots/{id}/screenshot */
  screenshotUrl: string;
  title: string;
  /** Hex strings, most prominent first. */
  colors: string[];
  width: number;
  height: number;
  extraction: Extraction;
}

export interface DiffDto extends SimilarityScores {
  id: string;
  comparisonId: string;
  viewport: Viewport;
  targetAId: string;
  targetBId: string;
  createdAt: string;
  /** The parts behind the blend, for the summary's detail view. */
  components: Record<string, number>;
}

export type FindingDto = Finding;

/** Pushed over /ws to the comparison's owner only. */
export interface ComparisonProgressMessage {
  comparisonId: string;
  status: ComparisonStatus;
  progress: ComparisonProgress | null;
  targetId?: string;
  targetStatus?: TargetStatus;
}

/** GET /api/comparisons/{id}/export?format=json */
export interface ComparisonReport {
  exportedAt: string;
  comparison: ComparisonDto;
  targets: TargetDto[];
  snapshots: SnapshotDto[];
  diffs: DiffDto[];
  findings: FindingDto[];
}
