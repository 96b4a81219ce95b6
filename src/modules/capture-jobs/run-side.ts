// The side of the instance driving a run: its `capture` and `time` tools as jobs any worker claims
// (asking.ts). The worker stores a capture's screenshot under its content key in the comparison's
// folder; the answer names it, and the run adopts that object as it is (files.adoptStored): the
// screenshot never comes to this instance.
import type { TimingJobInput, TimingResult } from "#server/modules/capture/public";
import type { CaptureJobInput, CaptureResult } from "#server/modules/comparisons/public";
import { asker, reasonOf, type AskDeps } from "./asking";
import { decodeCapture, decodeTiming, toCapturePayload, toTimingPayload } from "./codec";
import { CAPTURE_KIND, storedResultSchema, TIME_KIND } from "./model";
import { jobSealer } from "./seal";

export interface JobCaptureDeps extends AskDeps {
  /** The app secret (JWT_SECRET) every instance shares: secrets and sessions are sealed with it. */
  secret: Uint8Array;
  /** The store's folder for a capture's screenshot path (files.ts folderOf): where its worker stores it. */
  folderOf: (screenshotPath: string) => string;
}

/** Matches CapturePool.submit and submitTiming, as RunTools' capture and time; a capture's screenshot comes back stored. */
export interface JobCaptureTools {
  capture(ownerId: string, input: CaptureJobInput, onStage?: (stage: string) => void): Promise<CaptureResult>;
  time(ownerId: string, input: TimingJobInput): Promise<TimingResult>;
}

const UNREADABLE = "The capture worker's answer could not be read";

export function jobCaptureTools(deps: JobCaptureDeps): JobCaptureTools {
  const jobs = asker(deps);
  const sealer = jobSealer(deps.secret);

  return {
    async capture(ownerId, input, onStage) {
      let payload;
      try {
        payload = toCapturePayload(input, ownerId, sealer, deps.folderOf(input.screenshotPath));
      } catch (e) {
        deps.log?.("a capture job could not be made", e);
        return { ok: false, reason: "The page could not be queued for capture" };
      }
      const outcome = await jobs.ask(CAPTURE_KIND, ownerId, payload, onStage);
      if ("reason" in outcome) return { ok: false, reason: outcome.reason };
      const { row } = outcome;
      try {
        return decodeCapture(storedResultSchema.parse(JSON.parse(row.result)), row.sealed, row.job_id, input.screenshotPath, sealer);
      } catch (e) {
        deps.log?.(`capture job ${row.job_id}: its answer could not be read`, e);
        return { ok: false, reason: reasonOf(e, UNREADABLE) };
      } finally {
        await jobs.letGo(row);
      }
    },

    async time(ownerId, input) {
      const outcome = await jobs.ask(TIME_KIND, ownerId, toTimingPayload(input));
      if ("reason" in outcome) return { ok: false, reason: outcome.reason };
      try {
        return decodeTiming(storedResultSchema.parse(JSON.parse(outcome.row.result)));
      } catch (e) {
        deps.log?.(`timing job ${outcome.row.job_id}: its answer could not be read`, e);
        return { ok: false, reason: UNREADABLE };
      } finally {
        await jobs.letGo(outcome.row);
      }
    },
  };
}
