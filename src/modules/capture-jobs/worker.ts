// The worker side of captures: JobRunner handlers that run a claimed capture (or timing) job on this
// process's capture pool, store the screenshot under its content key in the comparison's folder
// (the key the run records: files.ts contentKey), write the answer (capture_results) and tell the
// waiting instance. The SSRF guard stays where it is: the pool checks every target, as it does for
// a capture of its own.
import { mkdtempSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { randomToken } from "#server/lib/ids";
import type { Analyser } from "#server/modules/analysis";
import { filmstripDirFor, isPoolFault, type CaptureResult, type TimingResult } from "#server/modules/capture/public";
import type { CapturePool } from "#server/modules/capture/browser/pool";
import { contentKey, fileSha256, pngSize, putFilmstrip } from "#server/modules/comparisons/public";
import { GiveUp, type JobHandler, type JobHandlers } from "#server/modules/jobs/public";
import { SecretUnreadable } from "#server/modules/secrets/public";
import type { BlobStore } from "#server/modules/storage";
import { answering } from "./answer";
import { encodeCapture, encodeTiming, fromCapturePayload, fromTimingPayload, screenshotOf } from "./codec";
import { CAPTURE_KIND, capturePayloadSchema, TIME_KIND, timingPayloadSchema, type CapturePayload } from "./model";
import { jobSealer } from "./seal";
import type { StoredCopies } from "./stored-copies";

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
  /**
   * This worker's copies for scoring pairs and its analyser: a capture stored here is kept as a
   * copy with its thumbnail handed to the analyser, so its pairs scored here read nothing again.
   */
  scoring?: { copies: StoredCopies; analyser: Pick<Analyser, "prime"> };
  now?: () => number;
  /** Wait after failed attempt n (a lost browser, a crashed worker) before another worker tries; default 2 s, 4 s. */
  backoff?: (attempt: number) => number;
  log?: (msg: string, err?: unknown) => void;
}

export function captureJobHandlers(deps: CaptureWorkerDeps): JobHandlers {
  const sealer = jobSealer(deps.secret);
  const { answer, tell } = answering({ db: deps.db, sealer, now: deps.now ?? Date.now, log: deps.log });
  // A folder of this process's own (mkdtemp makes it owner-only): the screenshots of other users' pages wait there.
  const workDir = deps.workDir ?? mkdtempSync(join(tmpdir(), "design-intel-capture-jobs-"));
  const backoff = deps.backoff ?? ((attempt: number) => 2_000 * attempt);

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

  /** Stores the screenshot under its content key in `folder`; null when it is not a PNG (the page's answer says so). */
  async function store(file: string, folder: string) {
    const size = await pngSize(file);
    if (!size) return null;
    const { sha256, bytes } = await fileSha256(file);
    const key = contentKey(folder, sha256);
    await deps.store.put(key, Bun.file(file), "image/png");
    return { key, sha256, bytes, ...size };
  }

  /** The load's filmstrip, where the app serves a snapshot's from; a page without one has none (a filmstrip is a nice-to-have). */
  async function storeFilmstrip(file: string, folder: string, snapshotId: string) {
    try {
      await putFilmstrip(deps.store, filmstripDirFor(file), `${folder}/filmstrips/${snapshotId}`);
    } catch (e) {
      deps.log?.("capture job: its filmstrip was not stored", e);
    }
  }

  /** The stored capture kept for scoring its pairs here, its thumbnail handed over; the file is moved, or left to be removed. */
  async function keepForScoring(result: CaptureResult, key: string, file: string) {
    if (!deps.scoring || !result.ok) return;
    try {
      const path = await deps.scoring.copies.seed(key, file);
      if (result.thumb) deps.scoring.analyser.prime(path, result.thumb, result.extraction.palette?.dominant ?? []);
    } catch (e) {
      deps.log?.("capture job: its screenshot was not kept for scoring", e);
    }
  }

  const capture: JobHandler = {
    async run(raw, ctx) {
      const payload = capturePayloadSchema.safeParse(raw);
      if (!payload.success) throw new GiveUp(`The capture job's payload is not one: ${payload.error.issues[0]?.message ?? "invalid"}`);
      // Checked before the page is opened: a folder that is not a comparison's is no job of ours.
      try {
        contentKey(payload.data.storeIn, "0".repeat(64));
      } catch {
        throw new GiveUp("The capture job names no comparison's folder to store its screenshot in");
      }
      // A folder of the job's own: the page's filmstrip is recorded beside its screenshot, under the snapshot's name.
      const jobDir = join(workDir, randomToken(12));
      const local = join(jobDir, `${payload.data.snapshotId ?? "capture"}.png`);
      try {
        await mkdir(jobDir, { recursive: true });
        const input = openInput(payload.data, ctx.job.owner_id, local);
        // One notification at a time, so the stages arrive in order (a pool of connections would race them) and before the answer.
        let told: Promise<unknown> = Promise.resolve();
        const onStage = (stage: string) => void (told = told.then(() => tell(ctx.job.id, { stage })));
        const result: CaptureResult = await deps.pool.submit(ctx.job.owner_id ?? NO_OWNER, input, onStage);
        await told;
        // The pool's own trouble: this attempt fails, and another worker (or this one, later) tries.
        if (!result.ok && isPoolFault(result.reason)) throw new Error(result.reason);
        // A lease lost meanwhile: another worker has the job now, and stores its own screenshot.
        if (ctx.signal.aborted) throw new Error("The lease was lost while capturing");
        const file = screenshotOf(result);
        const shot = file ? await store(file, payload.data.storeIn) : null;
        if (shot && payload.data.snapshotId) await storeFilmstrip(file!, payload.data.storeIn, payload.data.snapshotId);
        // Kept before the answer goes out: the run's pairs of it may come here next.
        if (file && shot) await keepForScoring(result, shot.key, file);
        const { stored, session } = encodeCapture(result, shot);
        await answer(ctx, stored, session);
      } finally {
        await rm(jobDir, { recursive: true, force: true });
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
      await answer(ctx, encodeTiming(result), null);
    },
    backoff,
    dead: (job) => tell(job.id, { done: true }),
  };

  return { [CAPTURE_KIND]: capture, [TIME_KIND]: time };
}
