// Where captures and pair scoring go when the roles are apart: jobs in the database that any worker
// claims (src/modules/capture-jobs). The run side's tools and analyser are what a serve or a
// scheduler gives its runs (it reads no screenshot); the worker side's handlers run each claimed job
// on a capture pool and an analyser, storing screenshots under the keys the runs record.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Analyser } from "#server/modules/analysis";
import {
  captureJobHandlers,
  jobAnalyser,
  jobCaptureTools,
  PAIR_KIND,
  pairJobHandlers,
  pruneCaptureResults,
  storedCopies,
} from "#server/modules/capture-jobs/public";
import { screenshotFiles } from "#server/modules/comparisons/public";
import { type JobHandlers, JobRunner, jobsService } from "#server/modules/jobs/public";
import type { BootContext } from "./context";
import type { Capturing } from "./pool";
import type { CaptureTools } from "./run-tools";

/** The run tools' `capture` and `time` of a process without browsers: each enqueues a job and resolves with the worker's answer. */
export function captureOverJobs(ctx: BootContext): CaptureTools {
  // Only its path arithmetic: the folder a capture path is in, which the worker stores under.
  const files = screenshotFiles(ctx.env.DATA_DIR, ctx.storage);
  return jobCaptureTools({
    db: ctx.db,
    jobs: jobsService({ db: ctx.db }),
    store: ctx.storage.store,
    secret: ctx.secret,
    folderOf: files.folderOf,
    log: ctx.log,
  });
}

/** The analyser of a process without browsers: each pair is an `analysis.pair` job a worker scores. */
export function scoringOverJobs(ctx: BootContext): Analyser {
  return jobAnalyser({ db: ctx.db, jobs: jobsService({ db: ctx.db }), store: ctx.storage.store, log: ctx.log });
}

/** The job handlers of a process with a capture pool and an analyser: captures, timings and pairs. */
export function captureJobsOn(ctx: BootContext, capturing: Capturing): JobHandlers {
  const workDir = ctx.storage.workDir ?? mkdtempSync(join(tmpdir(), "design-intel-capture-jobs-"));
  // Its own captures are kept here for scoring their pairs; other screenshots are fetched once.
  const copies = storedCopies(ctx.storage.store, join(workDir, "pair-copies"));
  return {
    ...captureJobHandlers({
      db: ctx.db,
      pool: capturing.pool,
      store: ctx.storage.store,
      secret: ctx.secret,
      workDir,
      scoring: { copies, analyser: capturing.analyser },
      log: ctx.log,
    }),
    ...pairJobHandlers({ db: ctx.db, analyser: capturing.analyser, copies, secret: ctx.secret, log: ctx.log }),
  };
}

/**
 * A worker's runner for pairs alone, beside its main one: a pair is a moment's work a run waits on,
 * and must not queue behind captures and timings, which hold their job slots while they wait for a
 * browser. Both runners may claim pairs (claims are atomic).
 */
export function pairRunnerOn(ctx: BootContext, handlers: JobHandlers): JobRunner {
  const score = handlers[PAIR_KIND];
  if (!score) throw new Error("no handler for pair jobs");
  // Two at a time: one downloads its screenshots while the analyser scores the other.
  return new JobRunner({ queue: jobsService({ db: ctx.db }), handlers: { [PAIR_KIND]: score }, concurrency: 2, log: ctx.log });
}

/** Answers nobody read, and screenshots earlier workers handed over under temporary keys, once a day old (the scheduler's retention). */
export async function pruneCaptureAnswers(ctx: BootContext): Promise<void> {
  const { rows, objects } = await pruneCaptureResults({ db: ctx.db, store: ctx.storage.store });
  if (rows || objects)
    ctx.logger.info({ rows, objects }, `capture jobs: removed ${rows} unread answers and ${objects} temporary screenshots`);
}
