// The queue as the rest of the app uses it: enqueue, claim under a lease, renew it, finish the
// attempt (done, or failed and retried at a later time, or dead), and the console's list and retry.
// Every write that finishes an attempt is conditional on still holding its claim (see repository).
// Times are passed in (epoch ms) so a drain can run on its own time line; `now` is the default.

import { conflict, notFound } from "#server/http/errors";
import { newId } from "#server/lib/ids";
import { isUniqueViolation, type SqlDb } from "#server/db/sql";
import { toJobView, type ClaimedJob, type EnqueueInput, type JobRow, type JobState, type JobView } from "./model";
import { jobsRepository } from "./repository";

export const DEFAULT_MAX_ATTEMPTS = 5;
/** Done jobs are kept this long for the console, then pruned. */
export const KEEP_DONE_MS = 7 * 86_400_000;
const MAX_ERROR_CHARS = 500;
const LIST_LIMIT = 200;

export interface JobsServiceDeps {
  db: SqlDb;
  now?: () => number;
}

export function jobsService(deps: JobsServiceDeps) {
  const repo = jobsRepository(deps.db);
  const now = deps.now ?? Date.now;
  const pg = deps.db.dialect.name === "postgres";

  return {
    now,
    /** Adds a job (or finds the live one with the same dedupe key) and returns its id. */
    async enqueue(input: EnqueueInput, at = now()): Promise<string> {
      const id = await repo.insert({
        id: newId(),
        kind: input.kind,
        payload: JSON.stringify(input.payload ?? null),
        ownerId: input.ownerId ?? null,
        maxAttempts: Math.max(1, input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
        runAt: input.runAt ?? at,
        dedupeKey: input.dedupeKey ?? null,
        at,
      });
      if (pg) await repo.announce(input.kind);
      return id;
    },
    /**
     * PostgreSQL: calls `fn` with the kind of each job any instance enqueues, so a worker elsewhere
     * claims it now rather than at its next poll. Null on SQLite: one process, whose runner is poked.
     */
    onEnqueued: (fn: (kind: string) => void) => (pg ? repo.onAnnounced(fn) : null),
    get: (id: string): Promise<JobRow | null> => repo.get(id),
    /** Takes the next due job of these kinds, owners in turn; expired leases are returned to the queue first. */
    claim(kinds: readonly string[], worker: string, leaseMs: number, at = now()) {
      return repo.claim(kinds, worker, at, leaseMs);
    },
    nextWake: (kinds: readonly string[]) => repo.nextWake(kinds),
    /** Extends the lease; false when it was lost (expired and claimed again), so the attempt should stop. */
    heartbeat: (job: ClaimedJob, leaseMs: number, at = now()): Promise<boolean> => repo.heartbeat(job, at + leaseMs, at),
    /** Done, if the claim is still held; false means another worker owns the job now and this attempt must not count. */
    complete: (job: ClaimedJob, at = now()): Promise<boolean> => repo.complete(job, at),
    /** The attempt failed: retried after `retryInMs`, or dead when it was the last (or `giveUp`). Null when the claim was lost. */
    fail(job: ClaimedJob, error: unknown, retryInMs: number, opts: { giveUp?: boolean; at?: number } = {}): Promise<JobRow | null> {
      const at = opts.at ?? now();
      const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_CHARS);
      return repo.fail(job, message, at + Math.max(0, retryInMs), opts.giveUp ?? false, at);
    },
    /** The console's retry: a dead job is queued again now with its attempts reset. */
    async retry(id: string, at = now()): Promise<JobView> {
      const job = await repo.get(id);
      if (!job) throw notFound("Job not found");
      if (job.state !== "dead") throw conflict(`Only a dead job can be retried; this one is ${job.state}`);
      let row: JobRow | null;
      try {
        row = await repo.retry(id, at);
      } catch (e) {
        // The unique index on live dedupe keys: the same work was queued again meanwhile.
        if (isUniqueViolation(e)) throw conflict("The same work is already queued");
        throw e;
      }
      if (!row) throw conflict("The job changed meanwhile; reload the list");
      return toJobView(row);
    },
    list: async (state?: JobState): Promise<JobView[]> => (await repo.list(state ?? null, LIST_LIMIT)).map(toJobView),
    counts: () => repo.counts(),
    /** Deletes done jobs older than `KEEP_DONE_MS`. */
    prune: (at = now()): Promise<number> => repo.prune(at - KEEP_DONE_MS),
  };
}

export type JobsService = ReturnType<typeof jobsService>;
