import { z } from "zod";

export const jobState = z.enum(["queued", "running", "done", "failed", "dead"], {
  error: 'state must be "queued", "running", "done", "failed" or "dead"',
});
export type JobState = z.infer<typeof jobState>;

/** GET /api/admin/jobs: one state, or every state but done when left out. */
export const jobsQuery = z.object({ state: jobState.optional() });

/** A job as the console lists it: no payload (it may carry a user's addresses and page text). */
export const jobView = z.object({
  id: z.string(),
  kind: z.string(),
  state: jobState,
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  leasedBy: z.string().nullable(),
  runAt: z.string(),
  updatedAt: z.string(),
});
export type JobView = z.infer<typeof jobView>;

/** A row of the jobs table. Times are epoch milliseconds. */
export interface JobRow {
  id: string;
  kind: string;
  payload: string;
  owner_id: string | null;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_at: number;
  leased_by: string | null;
  lease_until: number | null;
  claim_seq: number | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: number;
  updated_at: number;
}

/** What a worker holds after a claim: the row, and `attempts` is this attempt's number. */
export type ClaimedJob = JobRow & { state: "running"; leased_by: string; lease_until: number };

export interface EnqueueInput {
  kind: string;
  payload: unknown;
  /**
   * Whose work it is: the workspace (a comparison's owner; a personal workspace shares its user's
   * id, so a user's own work, like their digest, names it too). Owners take turns at the claim;
   * NULL is the installation's own work.
   */
  ownerId?: string | null;
  maxAttempts?: number;
  /** Not before this time (epoch ms); now when left out. */
  runAt?: number;
  /** At most one live job per key; enqueueing it again while one is live returns the live one's id. */
  dedupeKey?: string | null;
}

export const toJobView = (r: JobRow): JobView => ({
  id: r.id,
  kind: r.kind,
  state: r.state,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
  lastError: r.last_error,
  leasedBy: r.leased_by,
  runAt: new Date(r.run_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});
