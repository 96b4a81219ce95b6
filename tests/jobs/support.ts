import type { JobsService } from "#server/modules/jobs/public";

/**
 * A job that has used its one attempt and is dead (kind `test.dead`, no handler anywhere), for the
 * console's routes. Other `test.dead` jobs queued again by an earlier retry are made dead on the way.
 */
export function deadJob(jobs: JobsService, error = "the receiver is down", ownerId: string | null = null): string {
  const id = jobs.enqueue({ kind: "test.dead", payload: { note: "made dead for a test" }, ownerId, maxAttempts: 1 });
  for (;;) {
    const { job } = jobs.claim(["test.dead"], "test-worker", 60_000);
    if (!job) throw new Error("the test job was not claimable");
    jobs.fail(job, new Error(error), 0);
    if (job.id === id) return id;
  }
}
