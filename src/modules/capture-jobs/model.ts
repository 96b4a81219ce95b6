// What crosses the database between the instance driving a run and the worker that captures: a
// job's payload (jobs.payload) and its answer (capture_results.result), declared once here with the
// notifications that say a job moved. Secrets, the login session and the local screenshot path never
// appear in these shapes in the clear: the first two travel sealed (seal.ts), the file as a blob.
import { z } from "zod";
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
/** Where handed-over screenshots wait for the instance driving the run, under unguessable keys; pruned after a day. */
export const TEMP_PREFIX = "capture-jobs/";
/** Attempts a capture job gets: a crashed worker or a lost browser, twice, and then the page fails. */
export const CAPTURE_MAX_ATTEMPTS = 3;

/** What a capture job carries: the pool's input minus the local path, secrets and session sealed. */
export const capturePayloadSchema = z.object({
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

/** The grey thumbnail scoring compares: its Float32 pixels as base64 (little-endian), a quarter of their JSON size. */
export const thumbSchema = z.object({ width: z.number().int(), height: z.number().int(), data: z.string() });

/** A job's answer as stored; the screenshot is the row's blob, the session its sealed column. */
export const storedResultSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("captured"), extraction: z.custom<Extraction>(), thumb: thumbSchema.optional() }),
  /** A step could not be done; `screenshot`: the row's blob shows where it stopped. */
  z.object({ kind: z.literal("stopped"), reason: z.string(), step: stepFailureSchema, screenshot: z.boolean() }),
  z.object({ kind: z.literal("timed"), timing: z.custom<TimingSummary>() }),
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
