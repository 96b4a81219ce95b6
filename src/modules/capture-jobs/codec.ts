// The pool's inputs and answers to and from what the database holds (model.ts): the payload without
// the local screenshot path, with the store's folder for it and with secrets and session sealed; the
// answer naming the stored screenshot (never its bytes) and with the session sealed.
import { basename } from "node:path";
import type { CaptureJobInput, CaptureResult, TimingJobInput, TimingResult } from "#server/modules/capture/public";
import type { SessionState, StepSession } from "#server/modules/capture/model";
import type { CaptureResult as RunCaptureResult } from "#server/modules/comparisons/public";
import type { CapturePayload, StoredResult, TimingPayload } from "./model";
import { payloadScope, resultScope, type JobSealer } from "./seal";

interface SealedInput {
  secrets?: Record<string, string>;
  session?: StepSession;
}

type Shot = Extract<StoredResult, { kind: "captured" }>["shot"];

/** `storeIn`: the comparison's folder in the store, where the worker stores the screenshot. */
export function toCapturePayload(input: CaptureJobInput, ownerId: string | null, sealer: JobSealer, storeIn: string): CapturePayload {
  const { screenshotPath, secrets, session, ...rest } = input;
  const hidden: SealedInput = { ...(secrets ? { secrets } : {}), ...(session ? { session } : {}) };
  // The run names a capture's file by its snapshot id (files.ts prepare).
  const snapshotId = basename(screenshotPath, ".png");
  return { storeIn, snapshotId, ...rest, ...(secrets || session ? { sealed: sealer.seal(payloadScope(ownerId), "input", hidden) } : {}) };
}

/** The pool's input on the worker, its screenshot going to `screenshotPath` there. */
export function fromCapturePayload(
  payload: CapturePayload,
  ownerId: string | null,
  screenshotPath: string,
  sealer: JobSealer,
): CaptureJobInput {
  const { sealed, storeIn: _, snapshotId: __, ...rest } = payload;
  const hidden = sealed ? sealer.open<SealedInput>(payloadScope(ownerId), "input", sealed) : {};
  return { ...rest, screenshotPath, ...hidden };
}

export const toTimingPayload = (input: TimingJobInput): TimingPayload => ({ ...input });
export const fromTimingPayload = (payload: TimingPayload): TimingJobInput => ({ ...payload });

/** The screenshot a capture's answer has on the worker: the page's, or where its steps stopped; null when none. */
export function screenshotOf(result: CaptureResult): string | null {
  if (result.ok) return result.screenshotPath;
  return "step" in result ? result.screenshotPath : null;
}

/** A capture's answer to store, its screenshot stored as `shot` already; and the session to seal. */
export function encodeCapture(result: CaptureResult, shot: Shot | null): { stored: StoredResult; session: SessionState | null } {
  const session = "session" in result ? (result.session ?? null) : null;
  if (result.ok) {
    if (!shot) return { stored: { kind: "failed", reason: "The screenshot could not be saved" }, session: null };
    return { stored: { kind: "captured", extraction: result.extraction, shot }, session };
  }
  if ("step" in result) return { stored: { kind: "stopped", reason: result.reason, step: result.step, shot }, session };
  return { stored: { kind: "failed", reason: result.reason }, session: null };
}

/** The pool's answer again, its screenshot in the store (`stored`) and not at `screenshotPath`, which names where the run would have had it. */
export function decodeCapture(
  stored: StoredResult,
  sealedSession: string | null,
  jobId: string,
  screenshotPath: string,
  sealer: JobSealer,
): RunCaptureResult {
  const session = sealedSession ? { session: sealer.open<SessionState>(resultScope(jobId), "session", sealedSession) } : {};
  switch (stored.kind) {
    case "captured":
      return { ok: true, extraction: stored.extraction, screenshotPath, stored: stored.shot, ...session };
    case "stopped":
      return {
        ok: false,
        reason: stored.reason,
        step: stored.step,
        screenshotPath: stored.shot ? screenshotPath : null,
        ...(stored.shot ? { stored: stored.shot } : {}),
        ...session,
      };
    case "failed":
      return { ok: false, reason: stored.reason };
    case "timed":
    case "scored":
      return { ok: false, reason: `The worker answered a capture with a ${stored.kind === "timed" ? "timing" : "score"}` };
  }
}

export function encodeTiming(result: TimingResult): StoredResult {
  return result.ok ? { kind: "timed", timing: result.timing } : { kind: "failed", reason: result.reason };
}

export function decodeTiming(stored: StoredResult): TimingResult {
  if (stored.kind === "timed") return { ok: true, timing: stored.timing };
  return { ok: false, reason: stored.kind === "failed" ? stored.reason : "The worker answered a timing with something else" };
}
