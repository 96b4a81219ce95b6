// The side of the instance driving a run: its `capture` and `time` tools as jobs any worker claims.
// Each call enqueues a job owned by the run's owner (owners take turns at the claim), waits for its
// answer (waiter.ts), brings the screenshot from the blob store to the caller's local path, and lets
// go of the answer row and the temporary object. The run then stores the file as it always does.
import { isDatabaseUnavailable, type SqlDb } from "#server/db/sql";
import { isStorageError, storageMessageOf } from "#server/http/storage-errors";
import type { CaptureJobInput, CaptureResult, TimingJobInput, TimingResult } from "#server/modules/capture/public";
import type { JobsService } from "#server/modules/jobs/public";
import type { BlobStore } from "#server/modules/storage";
import { decodeCapture, decodeTiming, toCapturePayload, toTimingPayload } from "./codec";
import { CAPTURE_KIND, CAPTURE_MAX_ATTEMPTS, storedResultSchema, TIME_KIND, type CaptureResultRow } from "./model";
import { captureResultsRepository } from "./repository";
import { jobSealer } from "./seal";
import { captureSignals } from "./signals";
import { waitForAnswer, type WaitDeps } from "./waiter";

export interface JobCaptureDeps {
  db: SqlDb;
  jobs: Pick<JobsService, "enqueue" | "get">;
  store: BlobStore;
  /** The app secret (JWT_SECRET) every instance shares: secrets and sessions are sealed with it. */
  secret: Uint8Array;
  /** After each enqueue: a JobRunner in this process looks at once instead of at its next poll. */
  wake?: () => void;
  /** How often an answer is looked for without a signal; default 250 ms on SQLite, 5 s on PostgreSQL (a backstop there). */
  pollMs?: number;
  /** How long a call waits for its job at most; default 30 minutes (a queue of other owners' pages ahead of it included). */
  maxWaitMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

/** Matches CapturePool.submit and submitTiming, as RunTools' capture and time. */
export interface JobCaptureTools {
  capture(ownerId: string, input: CaptureJobInput, onStage?: (stage: string) => void): Promise<CaptureResult>;
  time(ownerId: string, input: TimingJobInput): Promise<TimingResult>;
}

const UNREADABLE = "The capture worker's answer could not be read";

/** What the user reads when the job could not be queued or its answer not fetched: never the driver's own words. */
function reasonOf(e: unknown, otherwise: string): string {
  if (isDatabaseUnavailable(e)) return "The database is not answering right now, so the page was not captured";
  return isStorageError(e) ? storageMessageOf(e) : otherwise;
}

export function jobCaptureTools(deps: JobCaptureDeps): JobCaptureTools {
  const repo = captureResultsRepository(deps.db);
  const signals = captureSignals(deps.db, deps.log);
  const sealer = jobSealer(deps.secret);
  const wait: WaitDeps = {
    repo,
    jobs: deps.jobs,
    signals,
    pollMs: deps.pollMs ?? (deps.db.dialect.name === "sqlite" ? 250 : 5_000),
    maxWaitMs: deps.maxWaitMs ?? 30 * 60_000,
    log: deps.log,
  };

  /** The answer row and its object are the run's alone and read once: gone after. */
  const letGo = async (row: CaptureResultRow) => {
    try {
      if (row.blob_key) await deps.store.delete(row.blob_key);
      await repo.remove(row.job_id);
    } catch (e) {
      // Left for the daily prune (retention.ts).
      deps.log?.(`capture job ${row.job_id}: its answer stays until the prune`, e);
    }
  };

  /** The job's id, or why it could not be queued. */
  async function enqueue(kind: string, ownerId: string, payload: unknown): Promise<{ id: string } | { ok: false; reason: string }> {
    // Listening before the job exists, so its first stage cannot come before anyone hears it.
    await signals.ready();
    try {
      const id = await deps.jobs.enqueue({ kind, payload, ownerId, maxAttempts: CAPTURE_MAX_ATTEMPTS });
      deps.wake?.();
      return { id };
    } catch (e) {
      deps.log?.(`a ${kind} job could not be queued`, e);
      return { ok: false, reason: reasonOf(e, "The page could not be queued for capture") };
    }
  }

  return {
    async capture(ownerId, input, onStage) {
      const queued = await enqueue(CAPTURE_KIND, ownerId, toCapturePayload(input, ownerId, sealer));
      if (!("id" in queued)) return queued;
      const { id } = queued;
      const outcome = await waitForAnswer(id, wait, onStage);
      if ("reason" in outcome) return { ok: false, reason: outcome.reason };
      const { row } = outcome;
      try {
        const stored = storedResultSchema.parse(JSON.parse(row.result));
        const result = decodeCapture(stored, row.sealed, id, input.screenshotPath, sealer);
        const file = "screenshotPath" in result ? result.screenshotPath : null;
        if (file && (!row.blob_key || !(await deps.store.download(row.blob_key, file))))
          return { ok: false, reason: "The screenshot was lost on its way from the capture worker" };
        return result;
      } catch (e) {
        deps.log?.(`capture job ${id}: its answer could not be read`, e);
        return { ok: false, reason: reasonOf(e, UNREADABLE) };
      } finally {
        await letGo(row);
      }
    },

    async time(ownerId, input) {
      const queued = await enqueue(TIME_KIND, ownerId, toTimingPayload(input));
      if (!("id" in queued)) return queued;
      const { id } = queued;
      const outcome = await waitForAnswer(id, wait);
      if ("reason" in outcome) return { ok: false, reason: outcome.reason };
      try {
        return decodeTiming(storedResultSchema.parse(JSON.parse(outcome.row.result)));
      } catch (e) {
        deps.log?.(`timing job ${id}: its answer could not be read`, e);
        return { ok: false, reason: UNREADABLE };
      } finally {
        await letGo(outcome.row);
      }
    },
  };
}
