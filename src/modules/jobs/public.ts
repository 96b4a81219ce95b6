// What other modules use of the jobs module: the queue, handlers and the two ways to run them.
export { jobsService, type JobsService, DEFAULT_MAX_ATTEMPTS } from "./service";
export {
  drain,
  exponentialBackoff,
  GiveUp,
  JobRunner,
  type AttemptOutcome,
  type JobContext,
  type JobHandler,
  type JobHandlers,
} from "./runner";
export type { EnqueueInput, JobRow, JobView } from "./model";
