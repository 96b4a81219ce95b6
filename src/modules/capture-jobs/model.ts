// What crosses the database between the instance driving a run and the worker that captures or
// scores: a job's payload (jobs.payload) and its answer (capture_results.result), declared once here
// with the notifications that say a job moved. Secrets and the login session never appear in these
// shapes in the clear (they travel sealed, seal.ts); a screenshot never crosses the database: the
// worker stores it under its content key and the answer names it.
import { z } from "zod";
import type { PairScores } from "#server/modules/analysis";
import type { EarlierSample, TimingSummary, Vitals } from "#server/modules/capture/public";
import {
  colorSchemeSchema,
  consentPolicySchema,
  stepFailureSchema,
  stepSchema,
  viewportSchema,
  type Extraction,
} from "#server/modules/capture/model";
import { TIMING_PROFILES } from "#server/modules/capture/public";

/** A page to capture; the pool's CaptureJobInput. */
export const CAPTURE_KIND = "capture";
/** More timing loads of a page captured before; the pool's TimingJobInput. */
export const TIME_KIND = "capture.time";
/** Two stored captures of one lane to score (the analyser's scorePair); a run's pairs in a deployment. */
export const PAIR_KIND = "analysis.pair";
/** Where screenshots were handed over under unguessable keys by earlier workers: what is left there is pruned after a day. */
export const TEMP_PREFIX = "capture-jobs/";
/** Attempts a capture job gets: a crashed worker or a lost browser, twice, and then the page fails. */
export const CAPTURE_MAX_ATTEMPTS = 3;

/** What a capture job carries: the pool's input minus the local path, secrets and session sealed. */
export const capturePayloadSchema = z.object({
  /** The comparison's folder in the store (files.ts folderOf): the worker stores the screenshot there under its content key. */
  storeIn: z.string(),
  /** The snapshot the capture becomes: its load filmstrip is stored under `<storeIn>/filmstrips/<snapshotId>/`, where the app serves it from. */
  snapshotId: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
  url: z.string(),
  viewport: viewportSchema,
  colorScheme: colorSchemeSchema.optional(),
  earlierSamples: z.array(z.custom<EarlierSample>()).optional(),
  deferTiming: z.boolean().optional(),
  consent: consentPolicySchema.optional(),
  steps: z.array(stepSchema).optional(),
  siteOrigin: z.string().optional(),
  keepSession: z.boolean().optional(),
  /** `{ secrets?, session? }` sealed with the app secret (seal.ts), bound to the job's owner. */
  sealed: z.string().optional(),
});
export type CapturePayload = z.infer<typeof capturePayloadSchema>;

export const timingPayloadSchema = z.object({
  url: z.string(),
  viewport: viewportSchema,
  profile: z.enum(TIMING_PROFILES),
  own: z.array(z.custom<Vitals>()),
  earlier: z.array(z.custom<EarlierSample>()),
  colorScheme: colorSchemeSchema.optional(),
});
export type TimingPayload = z.infer<typeof timingPayloadSchema>;

/** A screenshot the worker stored: its content key (files.ts contentKey) and what the run records of it. */
export const storedShotSchema = z.object({
  key: z.string(),
  sha256: z.string(),
  bytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});

/** What scoring reads of an extraction (analysis/similarity.ts and the parts it calls): a pair job carries no more. */
const SCORED_PARTS = ["viewport", "pageHeight", "capturedHeight", "palette", "typography", "layout", "copy", "masks"] as const;
export type ScoredParts = Pick<Extraction, (typeof SCORED_PARTS)[number]>;
export const scoredParts = (x: Extraction): ScoredParts =>
  Object.fromEntries(SCORED_PARTS.filter((k) => x[k] !== undefined).map((k) => [k, x[k]])) as ScoredParts;

const pairSideSchema = z.object({ key: z.string(), extraction: z.custom<ScoredParts>((v) => typeof v === "object" && v !== null) });
/** What a pair job carries: each capture's stored key and the parts of its extraction scoring reads. */
export const pairPayloadSchema = z.object({ a: pairSideSchema, b: pairSideSchema });
export type PairPayload = z.infer<typeof pairPayloadSchema>;

/** A job's answer as stored; the session is its sealed column. */
export const storedResultSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("captured"), extraction: z.custom<Extraction>(), shot: storedShotSchema }),
  /** A step could not be done; `shot`: the screenshot of where it stopped, when there is one. */
  z.object({ kind: z.literal("stopped"), reason: z.string(), step: stepFailureSchema, shot: storedShotSchema.nullable() }),
  z.object({ kind: z.literal("timed"), timing: z.custom<TimingSummary>() }),
  z.object({ kind: z.literal("scored"), scores: z.custom<PairScores>((v) => typeof v === "object" && v !== null) }),
  /** The page's own failure (unreachable, refused by the SSRF guard…): an answer, not a job failure. */
  z.object({ kind: z.literal("failed"), reason: z.string() }),
]);
export type StoredResult = z.infer<typeof storedResultSchema>;

/** A NOTIFY on the capture channel: a stage the capture reached, or "look now" (its answer is written, or it went dead). */
export const captureSignalSchema = z.object({ id: z.string(), stage: z.string().optional(), done: z.literal(true).optional() });
export type CaptureSignal = z.infer<typeof captureSignalSchema>;

export interface CaptureResultRow {
  job_id: string;
  result: string;
  sealed: string | null;
  blob_key: string | null;
  created_at: number;
}
