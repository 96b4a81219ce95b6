// The worker side: JobRunner handlers that run a claimed capture (or timing) job on this process's
// capture pool, hand the screenshot over through the blob store under an unguessable temporary key,
// write the answer (capture_results) and tell the waiting instance. The SSRF guard stays where it
// is: the pool checks every target, as it does for a capture of its own.
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { randomToken } from "#server/lib/ids";
import { isPoolFault, type CaptureResult, type TimingResult } from "#server/modules/capture/public";
import type { CapturePool } from "#server/modules/capture/browser/pool";
import { GiveUp, type JobContext, type JobHandler, type JobHandlers } from "#server/modules/jobs/public";
import { SecretUnreadable } from "#server/modules/secrets/public";
import type { BlobStore } from "#server/modules/storage";
import { encodeCapture, encodeTiming, fromCapturePayload, fromTimingPayload } from "./codec";
import {
  CAPTURE_KIND,
  capturePayloadSchema,
  TEMP_PREFIX,
  TIME_KIND,
  timingPayloadSchema,
  type CapturePayload,
  type StoredResult,
} from "./model";
import { captureResultsRepository } from "./repository";
import { jobSealer, resultScope } from "./seal";
import { captureSignals } from "./signals";

/** The pool's owner for the installation's own work (a job with no owner). */
const NO_OWNER = "installation";

export interface CaptureWorkerDeps {
  db: SqlDb;
  pool: Pick<CapturePool, "submit" | "submitTiming">;
  store: BlobStore;
  /** The app secret (JWT_SECRET) every instance shares: the payload's secrets and the session are sealed with it. */
  secret: Uint8Array;
  /** A folder of this process's own where the pool writes screenshots before they go to the store (BlobStorage.workDir); a temporary one when absent. */
  workDir?: string;
  now?: () => number;
  /** Wait after failed attempt n (a lost browser, a crashed worker) before another worker tries; default 2 s, 4 s. */
  backoff?: (attempt: number) => number;
  log?: (msg: string, err?: unknown) => void;
}

export function captureJobHandlers(deps: CaptureWorkerDeps): JobHandlers {
  const repo = captureResultsRepository(deps.db);
  const signals = captureSignals(deps.db, deps.log);
  const sealer = jobSealer(deps.secret);
  const now = deps.now ?? Date.now;
  // A folder of this process's own (mkdtemp makes it owner-only): the screenshots of other users' pages wait there.
  const workDir = deps.workDir ?? mkdtempSync(join(tmpdir(), "design-intel-capture-jobs-"));
  const backoff = deps.backoff ?? ((attempt: number) => 2_000 * attempt);

  const tell = (id: string, signal: { stage?: string; done?: true }) =>
    signals.send({ id, ...signal }).catch((e: unknown) => deps.log?.(`capture job ${id}: the notification failed`, e));

  /** The answer, written before the handler returns (so before the job is done); the previous attempt's object is let go. */
  async function answer(ctx: JobContext, stored: StoredResult, file: string | null, session: unknown) {
    // A lease lost meanwhile: another worker has the job now and its answer counts.
    if (ctx.signal.aborted) throw new Error("The lease was lost while capturing");
    const blobKey = file ? `${TEMP_PREFIX}${randomToken(24)}.png` : null;
    if (file && blobKey) await deps.store.put(blobKey, Bun.file(file), "image/png");
    const before = await repo.get(ctx.job.id);
    await repo.put({
      job_id: ctx.job.id,
      result: JSON.stringify(stored),
      sealed: session ? sealer.seal(resultScope(ctx.job.id), "session", session) : null,
      blob_key: blobKey,
      created_at: now(),
    });
    if (before?.blob_key)
      await deps.store.delete(before.blob_key).catch((e: unknown) => deps.log?.("capture job: an old object stayed", e));
    await tell(ctx.job.id, { done: true });
  }

  const openInput = (payload: CapturePayload, ownerId: string | null, local: string) => {
    try {
      return fromCapturePayload(payload, ownerId, local, sealer);
    } catch (e) {
      // No other worker of a deployment set up alike would open it either.
      if (e instanceof SecretUnreadable)
        throw new GiveUp("The capture job's secrets do not open with this worker's app secret: every instance must share JWT_SECRET");
      throw e;
    }
  };

  const capture: JobHandler = {
    async run(raw, ctx) {
      const payload = capturePayloadSchema.safeParse(raw);
      if (!payload.success) throw new GiveUp(`The capture job's payload is not one: ${payload.error.issues[0]?.message ?? "invalid"}`);
      const local = join(workDir, `${randomToken(12)}.png`);
      try {
        const input = openInput(payload.data, ctx.job.owner_id, local);
        // One notification at a time, so the stages arrive in order (a pool of connections would race them) and before the answer.
        let told: Promise<unknown> = Promise.resolve();
        const onStage = (stage: string) => void (told = told.then(() => tell(ctx.job.id, { stage })));
        const result: CaptureResult = await deps.pool.submit(ctx.job.owner_id ?? NO_OWNER, input, onStage);
        await told;
        // The pool's own trouble: this attempt fails, and another worker (or this one, later) tries.
        if (!result.ok && isPoolFault(result.reason)) throw new Error(result.reason);
        const { stored, file, session } = encodeCapture(result);
        await answer(ctx, stored, file, session);
      } finally {
        await rm(local, { force: true });
      }
    },
    backoff,
    dead: (job) => tell(job.id, { done: true }),
  };

  const time: JobHandler = {
    async run(raw, ctx) {
      const payload = timingPayloadSchema.safeParse(raw);
      if (!payload.success) throw new GiveUp(`The timing job's payload is not one: ${payload.error.issues[0]?.message ?? "invalid"}`);
      const result: TimingResult = await deps.pool.submitTiming(ctx.job.owner_id ?? NO_OWNER, fromTimingPayload(payload.data));
      if (!result.ok && isPoolFault(result.reason)) throw new Error(result.reason);
      await answer(ctx, encodeTiming(result), null, null);
    },
    backoff,
    dead: (job) => tell(job.id, { done: true }),
  };

  return { [CAPTURE_KIND]: capture, [TIME_KIND]: time };
}
