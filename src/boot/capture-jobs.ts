// Where captures go when the roles are apart: `capture` jobs in the database that any worker claims
// (src/modules/capture-jobs). The run side's tools are what a serve or a scheduler gives its runs;
// the worker side's handlers run each claimed job on a capture pool.
import { captureJobHandlers, jobCaptureTools, pruneCaptureResults } from "#server/modules/capture-jobs/public";
import { type JobHandlers, jobsService } from "#server/modules/jobs/public";
import type { BootContext } from "./context";
import type { Capturing } from "./pool";
import type { CaptureTools } from "./run-tools";

/** The run tools' `capture` and `time` of a process without browsers: each enqueues a job and resolves with the worker's answer. */
export function captureOverJobs(ctx: BootContext): CaptureTools {
  return jobCaptureTools({ db: ctx.db, jobs: jobsService({ db: ctx.db }), store: ctx.storage.store, secret: ctx.secret, log: ctx.log });
}

/** The job handlers of a process with a capture pool, for the capture job kinds. */
export function captureJobsOn(ctx: BootContext, capturing: Capturing): JobHandlers {
  return captureJobHandlers({
    db: ctx.db,
    pool: capturing.pool,
    store: ctx.storage.store,
    secret: ctx.secret,
    workDir: ctx.storage.workDir,
    log: ctx.log,
  });
}

/** Answers nobody read and their temporary screenshots, once a day old (the scheduler's retention). */
export async function pruneCaptureAnswers(ctx: BootContext): Promise<void> {
  const { rows, objects } = await pruneCaptureResults({ db: ctx.db, store: ctx.storage.store });
  if (rows || objects)
    ctx.logger.info({ rows, objects }, `capture jobs: removed ${rows} unread answers and ${objects} temporary screenshots`);
}
