// How a worker answers a job it ran: the answer row (capture_results), written before the handler
// returns (so before the job is done), then "look now" to the instance waiting for it.
import type { SqlDb } from "#server/db/sql";
import type { JobContext } from "#server/modules/jobs/public";
import type { StoredResult } from "./model";
import { captureResultsRepository } from "./repository";
import { resultScope, type JobSealer } from "./seal";
import { captureSignals } from "./signals";

export interface AnswerDeps {
  db: SqlDb;
  sealer: JobSealer;
  now: () => number;
  log?: (msg: string, err?: unknown) => void;
}

export interface Answering {
  /** Writes the answer (`session` sealed to the job) and tells the waiting instance. */
  answer(ctx: JobContext, stored: StoredResult, session: unknown): Promise<void>;
  /** Tells the waiting instance to look now (or hear a stage the work reached). */
  tell(id: string, signal: { stage?: string; done?: true }): Promise<void>;
}

export function answering(deps: AnswerDeps): Answering {
  const repo = captureResultsRepository(deps.db);
  const signals = captureSignals(deps.db, deps.log);
  const tell = (id: string, signal: { stage?: string; done?: true }) =>
    signals.send({ id, ...signal }).catch((e: unknown) => deps.log?.(`job ${id}: the notification failed`, e));
  return {
    tell,
    async answer(ctx, stored, session) {
      // A lease lost meanwhile: another worker has the job now and its answer counts.
      if (ctx.signal.aborted) throw new Error("The lease was lost while working");
      // An answer from an earlier attempt (a lease lost midway) is replaced.
      await repo.put({
        job_id: ctx.job.id,
        result: JSON.stringify(stored),
        sealed: session ? deps.sealer.seal(resultScope(ctx.job.id), "session", session) : null,
        blob_key: null,
        created_at: deps.now(),
      });
      await tell(ctx.job.id, { done: true });
    },
  };
}
