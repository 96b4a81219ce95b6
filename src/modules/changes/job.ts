// Change detection as a job of the jobs queue: a completed run's changes are found by whichever
// process claims it (a worker in a deployment, the single process otherwise), after a restart too.

/** The job kind; one live job per run (its dedupe key). */
export const CHANGES_JOB = "changes.detect";

/** Which run to compare with the completed run before it; `ownerId` is the workspace, so owners take turns at the claim. */
export interface ChangesJob {
  runId: string;
  comparisonId: string;
  ownerId: string;
}

/** The dedupe key's prefix; the run's id follows. */
export const CHANGES_JOB_KEY = `${CHANGES_JOB}:`;
export const changesJobKey = (runId: string) => CHANGES_JOB_KEY + runId;
