// The jobs table. Every statement here is meant to run on PostgreSQL as written, bar the two
// marked differences of the claim (docs/decisions/0019-jobs-in-the-database.md): no SQLite-only
// functions, times as epoch-ms integers, `IS NOT DISTINCT FROM` for the NULL owner, RETURNING.
import type { Db } from "#server/db/connection";
import { writeTx } from "#server/db/connection";
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

/** Claims name their kinds as a list; the statement is prepared once per list (`kind IN (?, ?)`). */
function claimStatements(db: Db, kinds: readonly string[]) {
  const list = kinds.map(() => "?").join(", ");
  // The owner first: of the owners with a due job of these kinds, the one whose latest claim is
  // oldest (never claimed counts as 0), so owners take turns; then that owner's oldest due job.
  // The owners are read from the covering index jobs_due. On PostgreSQL the outer SELECT ends with
  // FOR UPDATE SKIP LOCKED and claim_seq comes from a sequence; here the whole claim runs under
  // BEGIN IMMEDIATE, so one writer at a time and MAX + 1 is safe.
  const due = `state IN ('queued', 'failed') AND run_at <= ? AND kind IN (${list})`;
  const claim = db.query<JobRow, (string | number)[]>(
    `UPDATE jobs
        SET state = 'running', attempts = attempts + 1, leased_by = ?, lease_until = ?, updated_at = ?,
            claim_seq = (SELECT COALESCE(MAX(s.claim_seq), 0) + 1 FROM jobs s)
      WHERE id = (
        SELECT j.id FROM jobs j
         WHERE ${due.replace(/(state|run_at|kind) /g, "j.$1 ")}
           AND j.owner_id IS NOT DISTINCT FROM (
             SELECT c.owner_id FROM jobs c
              WHERE ${due.replace(/(state|run_at|kind) /g, "c.$1 ")}
              GROUP BY c.owner_id
              ORDER BY (SELECT COALESCE(MAX(o.claim_seq), 0) FROM jobs o WHERE o.owner_id IS NOT DISTINCT FROM c.owner_id),
                       MIN(c.run_at), c.owner_id
              LIMIT 1)
         ORDER BY j.run_at, j.created_at, j.id
         LIMIT 1)
      RETURNING *`,
  );
  // A lease that ran out goes back to the queue (or to dead when that was its last attempt); the
  // attempt it used stays counted.
  const expire = db.query<JobRow, (string | number)[]>(
    `UPDATE jobs
        SET state = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
            last_error = 'The lease of ' || leased_by || ' ran out before the job finished',
            leased_by = NULL, lease_until = NULL, run_at = ?, updated_at = ?
      WHERE state = 'running' AND lease_until < ? AND kind IN (${list})
      RETURNING *`,
  );
  const nextWake = db.query<{ due: number | null; lease: number | null }, string[]>(
    `SELECT (SELECT MIN(run_at) FROM jobs WHERE state IN ('queued', 'failed') AND kind IN (${list})) AS due,
            (SELECT MIN(lease_until) FROM jobs WHERE state = 'running' AND kind IN (${list})) AS lease`,
  );
  return { claim, expire, nextWake };
}

export function jobsRepository(db: Db) {
  const byKinds = new Map<string, ReturnType<typeof claimStatements>>();
  const forKinds = (kinds: readonly string[]) => {
    const key = kinds.join("\u0000");
    let s = byKinds.get(key);
    if (!s) byKinds.set(key, (s = claimStatements(db, kinds)));
    return s;
  };
  const q = {
    insert: db.query<null, [string, string, string, string | null, number, number, string | null, number, number]>(
      `INSERT INTO jobs (id, kind, payload, owner_id, state, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    liveByKey: db.query<{ id: string }, [string]>("SELECT id FROM jobs WHERE dedupe_key = ? AND state IN ('queued', 'running', 'failed')"),
    get: db.query<JobRow, [string]>("SELECT * FROM jobs WHERE id = ?"),
    // Every write below names the claim it finishes: the holder and the attempt. A worker whose
    // lease ran out and was claimed again matches nothing, so a job completes once.
    heartbeat: db.query<null, [number, number, string, string, number]>(
      "UPDATE jobs SET lease_until = ?, updated_at = ? WHERE id = ? AND state = 'running' AND leased_by = ? AND attempts = ?",
    ),
    complete: db.query<null, [number, string, string, number]>(
      `UPDATE jobs SET state = 'done', leased_by = NULL, lease_until = NULL, updated_at = ?
        WHERE id = ? AND state = 'running' AND leased_by = ? AND attempts = ?`,
    ),
    fail: db.query<JobRow, [number, number, string, number, string, string, number]>(
      `UPDATE jobs
          SET state = CASE WHEN ? = 1 OR attempts >= max_attempts THEN 'dead' ELSE 'failed' END,
              run_at = ?, last_error = ?, leased_by = NULL, lease_until = NULL, updated_at = ?
        WHERE id = ? AND state = 'running' AND leased_by = ? AND attempts = ?
        RETURNING *`,
    ),
    retry: db.query<JobRow, [number, number, string]>(
      `UPDATE jobs SET state = 'queued', attempts = 0, run_at = ?, leased_by = NULL, lease_until = NULL, updated_at = ?
        WHERE id = ? AND state = 'dead' RETURNING *`,
    ),
    listState: db.query<JobRow, [string, number]>("SELECT * FROM jobs WHERE state = ? ORDER BY updated_at DESC, id DESC LIMIT ?"),
    listLive: db.query<JobRow, [number]>("SELECT * FROM jobs WHERE state <> 'done' ORDER BY updated_at DESC, id DESC LIMIT ?"),
    counts: db.query<{ state: JobState; n: number }, []>("SELECT state, COUNT(*) AS n FROM jobs GROUP BY state"),
    prune: db.query<null, [number]>("DELETE FROM jobs WHERE state = 'done' AND updated_at < ?"),
  };

  return {
    /** The new job's id, or the live job's with the same dedupe key. */
    insert(j: InsertJob): string {
      if (q.insert.run(j.id, j.kind, j.payload, j.ownerId, j.maxAttempts, j.runAt, j.dedupeKey, j.at, j.at).changes > 0) return j.id;
      const live = j.dedupeKey === null ? null : q.liveByKey.get(j.dedupeKey);
      if (!live) throw new Error(`job ${j.id} was not inserted`);
      return live.id;
    },
    get: (id: string): JobRow | null => q.get.get(id),
    /** Returns the jobs whose leases ran out (requeued or dead) and the claimed job, in one write transaction. */
    claim(kinds: readonly string[], worker: string, at: number, leaseMs: number): { job: ClaimedJob | null; expired: JobRow[] } {
      const s = forKinds(kinds);
      return writeTx(db, () => {
        const expired = s.expire.all(at, at, at, ...kinds);
        const job = s.claim.get(worker, at + leaseMs, at, at, ...kinds, at, ...kinds) as ClaimedJob | null;
        return { job, expired };
      });
    },
    /** The earliest time a job of these kinds comes due, and the earliest lease that runs out. */
    nextWake(kinds: readonly string[]): { due: number | null; lease: number | null } {
      return forKinds(kinds).nextWake.get(...kinds, ...kinds) ?? { due: null, lease: null };
    },
    heartbeat: (job: ClaimedJob, leaseUntil: number, at: number): boolean =>
      q.heartbeat.run(leaseUntil, at, job.id, job.leased_by, job.attempts).changes > 0,
    complete: (job: ClaimedJob, at: number): boolean => q.complete.run(at, job.id, job.leased_by, job.attempts).changes > 0,
    fail: (job: ClaimedJob, error: string, runAt: number, giveUp: boolean, at: number): JobRow | null =>
      q.fail.get(giveUp ? 1 : 0, runAt, error, at, job.id, job.leased_by, job.attempts),
    /** Null when the job is not dead; throws the database's unique error when its key is live again. */
    retry: (id: string, at: number): JobRow | null => q.retry.get(at, at, id),
    list: (state: JobState | null, limit: number): JobRow[] => (state ? q.listState.all(state, limit) : q.listLive.all(limit)),
    counts(): Record<JobState, number> {
      const out: Record<JobState, number> = { queued: 0, running: 0, done: 0, failed: 0, dead: 0 };
      for (const r of q.counts.all()) out[r.state] = r.n;
      return out;
    },
    prune: (before: number): number => q.prune.run(before).changes,
  };
}

export type JobsRepository = ReturnType<typeof jobsRepository>;
