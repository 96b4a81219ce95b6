// capture_results: a capture job's answer, written by the worker before its job is done and read
// (then deleted) by the instance driving the run. The same statements on SQLite and PostgreSQL.
import type { SqlDb } from "#server/db/sql";
import type { CaptureResultRow } from "./model";

/** Rows one prune pass deletes at most, so a backlog never makes one long statement. */
const PRUNE_BATCH = 500;

export function captureResultsRepository(db: SqlDb) {
  return {
    /** Writes the job's answer; an answer from an earlier attempt (a lease lost midway) is replaced. */
    put: (r: CaptureResultRow) =>
      db.run(
        `INSERT INTO capture_results (job_id, result, sealed, blob_key, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (job_id) DO UPDATE SET result = excluded.result, sealed = excluded.sealed, blob_key = excluded.blob_key,
                                            created_at = excluded.created_at`,
        [r.job_id, r.result, r.sealed, r.blob_key, r.created_at],
      ),
    get: (jobId: string) => db.one<CaptureResultRow>("SELECT * FROM capture_results WHERE job_id = $1", [jobId]),
    remove: (jobId: string) => db.run("DELETE FROM capture_results WHERE job_id = $1", [jobId]),
    /** Answers nobody read, oldest first. */
    older: (before: number) =>
      db.all<Pick<CaptureResultRow, "job_id" | "blob_key">>(
        "SELECT job_id, blob_key FROM capture_results WHERE created_at < $1 ORDER BY created_at LIMIT $2",
        [before, PRUNE_BATCH],
      ),
  };
}

export type CaptureResultsRepository = ReturnType<typeof captureResultsRepository>;
