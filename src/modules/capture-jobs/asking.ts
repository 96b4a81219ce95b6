// What the instance driving a run does with any job it hands a worker: enqueue it owned by the
// run's owner (owners take turns at the claim), wait for its answer (waiter.ts), and let go of the
// answer row once read. The capture and time tools (run-side.ts) and pair scoring (pair-side.ts) ask
// through it.
import { isDatabaseUnavailable, type SqlDb } from "#server/db/sql";
import { isStorageError, storageMessageOf } from "#server/http/storage-errors";
import type { JobsService } from "#server/modules/jobs/public";
import type { BlobStore } from "#server/modules/storage";
import { CAPTURE_MAX_ATTEMPTS, type CaptureResultRow } from "./model";
import { captureResultsRepository } from "./repository";
import { captureSignals } from "./signals";
import { waitForAnswer, type Outcome, type WaitDeps, type Words } from "./waiter";

export interface AskDeps {
  db: SqlDb;
  jobs: Pick<JobsService, "enqueue" | "get">;
  store: BlobStore;
  /** After each enqueue: a JobRunner in this process looks at once instead of at its next poll. */
  wake?: () => void;
  /** How often an answer is looked for without a signal; default 250 ms on SQLite, 5 s on PostgreSQL (a backstop there). */
  pollMs?: number;
  /** How long a call waits for its job at most; default 30 minutes (a queue of other owners' pages ahead of it included). */
  maxWaitMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

/** What the user reads when the job could not be queued or its answer not fetched: never the driver's own words. */
export function reasonOf(e: unknown, otherwise: string): string {
  if (isDatabaseUnavailable(e)) return "The database is not answering right now, so the page was not captured";
  return isStorageError(e) ? storageMessageOf(e) : otherwise;
}

export interface Asker {
  /** Enqueues a job of `kind` and resolves with its answer row, or why there is none. */
  ask(kind: string, ownerId: string, payload: unknown, onStage?: (stage: string) => void): Promise<Outcome>;
  /** The answer row (and an object an earlier worker handed over with it) is the run's alone and read once: gone after. */
  letGo(row: CaptureResultRow): Promise<void>;
}

export function asker(deps: AskDeps, words?: Words): Asker {
  const repo = captureResultsRepository(deps.db);
  const signals = captureSignals(deps.db, deps.log);
  const wait: WaitDeps = {
    repo,
    jobs: deps.jobs,
    signals,
    pollMs: deps.pollMs ?? (deps.db.dialect.name === "sqlite" ? 250 : 5_000),
    maxWaitMs: deps.maxWaitMs ?? 30 * 60_000,
    log: deps.log,
    words,
  };
  return {
    async ask(kind, ownerId, payload, onStage) {
      // Listening before the job exists, so its first stage cannot come before anyone hears it.
      await signals.ready();
      let id: string;
      try {
        id = await deps.jobs.enqueue({ kind, payload, ownerId, maxAttempts: CAPTURE_MAX_ATTEMPTS });
        deps.wake?.();
      } catch (e) {
        deps.log?.(`a ${kind} job could not be queued`, e);
        return { reason: reasonOf(e, "The page could not be queued for capture") };
      }
      return waitForAnswer(id, wait, onStage);
    },
    async letGo(row) {
      try {
        if (row.blob_key) await deps.store.delete(row.blob_key);
        await repo.remove(row.job_id);
      } catch (e) {
        // Left for the daily prune (retention.ts).
        deps.log?.(`job ${row.job_id}: its answer stays until the prune`, e);
      }
    },
  };
}
