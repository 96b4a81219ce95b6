// The jobs table. Every statement here runs on SQLite and PostgreSQL alike, bar the dialect's
// fragments in the claim (docs/decisions/0019-jobs-in-the-database.md): no SQLite-only functions,
// times as epoch-ms integers, `IS NOT DISTINCT FROM` for the NULL owner, RETURNING.
import type { Dialect, SqlDb } from "#server/db/sql";
import type { ClaimedJob, JobRow, JobState } from "./model";

/** Live states: a dedupe key is unique among these, and only these can still run. */
export const LIVE_STATES: readonly JobState[] = ["queued", "running", "failed"];

export interface InsertJob {
  id: string;
  kind: string;
  payload: string;
  ownerId: string | null;
  maxAttempts: number;
  runAt: number;
  dedupeKey: string | null;
  at: number;
}

/** `kind IN ($n, $n+1, …)` for the kinds, numbered from `first`. */
const kindList = (kinds: readonly string[], first: number) => kinds.map((_, i) => `$${first + i}`).join(", ");

/** The sequence claim_seq comes from on PostgreSQL (migrations/pg/0026_jobs_claim_counter.sql). */
const CLAIM_COUNTER = "jobs_claim_counter";

/** The claim's statements for a list of kinds (`kind IN ($4, $5)`), built once per list. */
function claimStatements(d: Dialect, kinds: readonly string[]) {
  // $1 worker, $2 lease until, $3 now, $4… the kinds ($3 and the kinds serve every subquery).
  const due = (t: string) => `${t}.state IN ('queued', 'failed') AND ${t}.run_at <= $3 AND ${t}.kind IN (${kindList(kinds, 4)})`;
  // The picked row is taken only while it is still due, as the UPDATE reads it: on PostgreSQL a
  // claim that committed after this one began may have taken it, and it must not be taken twice.
  const take = (pick: string) => `UPDATE jobs
        SET state = 'running', attempts = attempts + 1, leased_by = $1, lease_until = $2, updated_at = $3,
            claim_seq = ${d.nextNumber(CLAIM_COUNTER, "jobs", "claim_seq")}
      WHERE id = (${pick}) AND state IN ('queued', 'failed')
      RETURNING *`;
  // The owner first: of the owners with a due job of these kinds, the one whose latest claim is
  // oldest (never claimed counts as 0), so owners take turns; then that owner's oldest due one.
  // The owners are read from the covering index jobs_due. On SQLite the claim runs in one
  // BEGIN IMMEDIATE transaction, one writer at a time. On PostgreSQL claims run side by side: the
  // row is locked as it is picked and rows another claim holds are passed over.
  const claim = take(`SELECT j.id FROM jobs j
         WHERE ${due("j")}
           AND j.owner_id IS NOT DISTINCT FROM (
             SELECT c.owner_id FROM jobs c
              WHERE ${due("c")}
              GROUP BY c.owner_id
              ORDER BY (SELECT COALESCE(MAX(o.claim_seq), 0) FROM jobs o WHERE o.owner_id IS NOT DISTINCT FROM c.owner_id),
                       MIN(c.run_at), c.owner_id
              LIMIT 1)
         ORDER BY j.run_at, j.created_at, j.id
         LIMIT 1 ${d.skipLocked}`);
  // PostgreSQL only: the owner's turn reads the table as last committed, so when another claim
  // holds every due job of that owner the claim above finds nothing; then any due job that is free
  // is taken rather than none. SQLite never needs it: its claims see each other's writes.
  const anyDue = d.skipLocked
    ? take(`SELECT j.id FROM jobs j WHERE ${due("j")} ORDER BY j.run_at, j.created_at, j.id LIMIT 1 ${d.skipLocked}`)
    : null;
  // A lease that ran out goes back to the queue (or to dead when that was its last attempt); the
  // attempt it used stays counted. Rows another instance is returning (or renewing) at the same
  // moment are passed over, never waited for. $1 now, $2… the kinds.
  const expire = `UPDATE jobs
        SET state = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
            last_error = 'The lease of ' || leased_by || ' ran out before the job finished',
            leased_by = NULL, lease_until = NULL, run_at = $1, updated_at = $1
      WHERE id IN (SELECT x.id FROM jobs x WHERE x.state = 'running' AND x.lease_until < $1 AND x.kind IN (${kindList(kinds, 2)}) ${d.skipLocked})
        AND state = 'running' AND lease_until < $1
      RETURNING *`;
  const nextWake = `SELECT (SELECT MIN(run_at) FROM jobs WHERE state IN ('queued', 'failed') AND kind IN (${kindList(kinds, 1)})) AS due,
            (SELECT MIN(lease_until) FROM jobs WHERE state = 'running' AND kind IN (${kindList(kinds, 1)})) AS lease`;
  return { claim, anyDue, expire, nextWake };
}

/** PostgreSQL: where an enqueue is announced, so workers of other processes look at once rather than at their next poll. */
export const JOBS_CHANNEL = "design_intel_jobs";

export function jobsRepository(db: SqlDb) {
  const byKinds = new Map<string, ReturnType<typeof claimStatements>>();
  const forKinds = (kinds: readonly string[]) => {
    const key = kinds.join("\u0000");
    let s = byKinds.get(key);
    if (!s) byKinds.set(key, (s = claimStatements(db.dialect, kinds)));
    return s;
  };

  return {
    /** The new job's id, or the live job's with the same dedupe key. */
    async insert(j: InsertJob): Promise<string> {
      const added = await db.run(
        `INSERT INTO jobs (id, kind, payload, owner_id, state, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'queued', 0, $5, $6, $7, $8, $8) ON CONFLICT DO NOTHING`,
        [j.id, j.kind, j.payload, j.ownerId, j.maxAttempts, j.runAt, j.dedupeKey, j.at],
      );
      if (added > 0) return j.id;
      const live =
        j.dedupeKey === null
          ? null
          : await db.one<{ id: string }>("SELECT id FROM jobs WHERE dedupe_key = $1 AND state IN ('queued', 'running', 'failed')", [
              j.dedupeKey,
            ]);
      if (!live) throw new Error(`job ${j.id} was not inserted`);
      return live.id;
    },
    get: (id: string) => db.one<JobRow>("SELECT * FROM jobs WHERE id = $1", [id]),
    /** PostgreSQL: tells every listening instance a job of this kind is queued (delivered when the enqueue commits). */
    announce: async (kind: string): Promise<void> => {
      await db.run("SELECT pg_notify($1, $2)", [JOBS_CHANNEL, kind]);
    },
    /** PostgreSQL: calls `fn` with the kind of every job enqueued by any instance. */
    onAnnounced: (fn: (kind: string) => void) => db.listen(JOBS_CHANNEL, fn),
    /** Returns the jobs whose leases ran out (requeued or dead) and the claimed job, in one write transaction. */
    claim(kinds: readonly string[], worker: string, at: number, leaseMs: number): Promise<{ job: ClaimedJob | null; expired: JobRow[] }> {
      const s = forKinds(kinds);
      return db.tx(async () => {
        const expired = await db.all<JobRow>(s.expire, [at, ...kinds]);
        const params = [worker, at + leaseMs, at, ...kinds];
        const job = (await db.one<ClaimedJob>(s.claim, params)) ?? (s.anyDue ? await db.one<ClaimedJob>(s.anyDue, params) : null);
        return { job, expired };
      });
    },
    /** The earliest time a job of these kinds comes due, and the earliest lease that runs out. */
    async nextWake(kinds: readonly string[]): Promise<{ due: number | null; lease: number | null }> {
      return (await db.one<{ due: number | null; lease: number | null }>(forKinds(kinds).nextWake, kinds)) ?? { due: null, lease: null };
    },
    // Every write below names the claim it finishes: the holder and the attempt. A worker whose
    // lease ran out and was claimed again matches nothing, so a job completes once.
    heartbeat: async (job: ClaimedJob, leaseUntil: number, at: number): Promise<boolean> =>
      (await db.run(
        "UPDATE jobs SET lease_until = $1, updated_at = $2 WHERE id = $3 AND state = 'running' AND leased_by = $4 AND attempts = $5",
        [leaseUntil, at, job.id, job.leased_by, job.attempts],
      )) > 0,
    complete: async (job: ClaimedJob, at: number): Promise<boolean> =>
      (await db.run(
        `UPDATE jobs SET state = 'done', leased_by = NULL, lease_until = NULL, updated_at = $1
          WHERE id = $2 AND state = 'running' AND leased_by = $3 AND attempts = $4`,
        [at, job.id, job.leased_by, job.attempts],
      )) > 0,
    fail: (job: ClaimedJob, error: string, runAt: number, giveUp: boolean, at: number) =>
      db.one<JobRow>(
        `UPDATE jobs
            SET state = CASE WHEN $1 OR attempts >= max_attempts THEN 'dead' ELSE 'failed' END,
                run_at = $2, last_error = $3, leased_by = NULL, lease_until = NULL, updated_at = $4
          WHERE id = $5 AND state = 'running' AND leased_by = $6 AND attempts = $7
          RETURNING *`,
        [giveUp, runAt, error, at, job.id, job.leased_by, job.attempts],
      ),
    /** Null when the job is not dead; throws the database's unique error when its key is live again. */
    retry: (id: string, at: number) =>
      db.one<JobRow>(
        `UPDATE jobs SET state = 'queued', attempts = 0, run_at = $1, leased_by = NULL, lease_until = NULL, updated_at = $1
          WHERE id = $2 AND state = 'dead' RETURNING *`,
        [at, id],
      ),
    list: (state: JobState | null, limit: number) =>
      state
        ? db.all<JobRow>("SELECT * FROM jobs WHERE state = $1 ORDER BY updated_at DESC, id DESC LIMIT $2", [state, limit])
        : db.all<JobRow>("SELECT * FROM jobs WHERE state <> 'done' ORDER BY updated_at DESC, id DESC LIMIT $1", [limit]),
    async counts(): Promise<Record<JobState, number>> {
      const out: Record<JobState, number> = { queued: 0, running: 0, done: 0, failed: 0, dead: 0 };
      for (const r of await db.all<{ state: JobState; n: number }>("SELECT state, COUNT(*) AS n FROM jobs GROUP BY state"))
        out[r.state] = r.n;
      return out;
    },
    prune: (before: number) => db.run("DELETE FROM jobs WHERE state = 'done' AND updated_at < $1", [before]),
  };
}

export type JobsRepository = ReturnType<typeof jobsRepository>;
