// The pool's inputs and answers to and from what the database holds (model.ts): the payload without
// the local screenshot path and with secrets and session sealed; the answer without the file (a blob)
// and with the thumbnail as compact bytes and the session sealed.
import type { GrayImage } from "#server/lib/image/image";
import type { CaptureJobInput, CaptureResult, TimingJobInput, TimingResult } from "#server/modules/capture/public";
import type { SessionState, StepSession } from "#server/modules/capture/model";
import type { CapturePayload, StoredResult, TimingPayload } from "./model";
import { payloadScope, resultScope, type JobSealer } from "./seal";

interface SealedInput {
  secrets?: Record<string, string>;
  session?: StepSession;
}

export function toCapturePayload(input: CaptureJobInput, ownerId: string | null, sealer: JobSealer): CapturePayload {
  const { screenshotPath: _, secrets, session, ...rest } = input;
  const hidden: SealedInput = { ...(secrets ? { secrets } : {}), ...(session ? { session } : {}) };
  return { ...rest, ...(secrets || session ? { sealed: sealer.seal(payloadScope(ownerId), "input", hidden) } : {}) };
}

/** The pool's input on the worker, its screenshot going to `screenshotPath` there. */
export function fromCapturePayload(
  payload: CapturePayload,
  ownerId: string | null,
  screenshotPath: string,
  sealer: JobSealer,
): CaptureJobInput {
  const { sealed, ...rest } = payload;
  const hidden = sealed ? sealer.open<SealedInput>(payloadScope(ownerId), "input", sealed) : {};
  return { ...rest, screenshotPath, ...hidden };
}

export const toTimingPayload = (input: TimingJobInput): TimingPayload => ({ ...input });
export const fromTimingPayload = (payload: TimingPayload): TimingJobInput => ({ ...payload });

export function encodeThumb(t: GrayImage) {
  return { width: t.width, height: t.height, data: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString("base64") };
}

export function decodeThumb(t: { width: number; height: number; data: string }): GrayImage {
  const bytes = Buffer.from(t.data, "base64");
  // Copied into a buffer of its own: a Float32Array needs 4-byte alignment, which base64's may lack.
  return { width: t.width, height: t.height, data: new Float32Array(new Uint8Array(bytes).buffer) };
}

/** A capture's answer to store: the answer, whether its file goes along, and the session to seal. */
export function encodeCapture(result: CaptureResult): { stored: StoredResult; file: string | null; session: SessionState | null } {
  const session = "session" in result ? (result.session ?? null) : null;
  if (result.ok) {
    const thumb = result.thumb ? { thumb: encodeThumb(result.thumb) } : {};
    return { stored: { kind: "captured", extraction: result.extraction, ...thumb }, file: result.screenshotPath, session };
  }
  if ("step" in result) {
    const file = result.screenshotPath;
    return { stored: { kind: "stopped", reason: result.reason, step: result.step, screenshot: file !== null }, file, session };
  }
  return { stored: { kind: "failed", reason: result.reason }, file: null, session: null };
}

/** The pool's answer again, its file at `screenshotPath` (already there when it has one). */
export function decodeCapture(
  stored: StoredResult,
  sealedSession: string | null,
  jobId: string,
  screenshotPath: string,
  sealer: JobSealer,
): CaptureResult {
  const session = sealedSession ? { session: sealer.open<SessionState>(resultScope(jobId), "session", sealedSession) } : {};
  switch (stored.kind) {
    case "captured":
      return {
        ok: true,
        extraction: stored.extraction,
        screenshotPath,
        ...(stored.thumb ? { thumb: decodeThumb(stored.thumb) } : {}),
        ...session,
      };
    case "stopped":
      return { ok: false, reason: stored.reason, step: stored.step, screenshotPath: stored.screenshot ? screenshotPath : null, ...session };
    case "failed":
      return { ok: false, reason: stored.reason };
    case "timed":
      return { ok: false, reason: "The worker answered a capture with a timing" };
  }
}

export function encodeTiming(result: TimingResult): StoredResult {
  return result.ok ? { kind: "timed", timing: result.timing } : { kind: "failed", reason: result.reason };
}

export function decodeTiming(stored: StoredResult): TimingResult {
  if (stored.kind === "timed") return { ok: true, timing: stored.timing };
  return { ok: false, reason: stored.kind === "failed" ? stored.reason : "The worker answered a timing with a capture" };
}
