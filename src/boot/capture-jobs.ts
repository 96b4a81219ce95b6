// Where captures go when a process has no browsers of its own: `capture` jobs in the database that
// any worker claims (issue 30). The two functions below are the only places the roles ask about
// them; while `jobCaptureTools` is null, a process that drives runs (serve, scheduler) keeps a
// capture pool of its own so that its runs still capture.
import type { JobHandlers } from "#server/modules/jobs/public";
import type { BootContext } from "./context";
import type { Capturing } from "./pool";
import type { CaptureTools } from "./run-tools";

/**
 * The run tools' `capture` and `time` of a process without a pool: each enqueues a job and
 * resolves with the worker's result. Null: the capture jobs are not wired, runs use a local pool.
 */
export const jobCaptureTools: ((ctx: BootContext) => CaptureTools) | null = null;

/** The job handlers a worker runs on its pool for the capture job kinds (none while not wired). */
export const captureJobHandlers: ((ctx: BootContext, capturing: Capturing) => JobHandlers) | null = null;
