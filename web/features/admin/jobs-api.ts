// The console's calls to the jobs routes (src/modules/jobs/index.ts).
import type { JobState } from "#server/modules/jobs/model";
import { api, call } from "#web/lib/api";

/** One state, or every job not done when `state` is null. */
export const listJobs = (state: JobState | null) => call(api.admin.jobs.get({ query: state ? { state } : {} }));
export const retryJob = (id: string) => call(api.admin.jobs({ id: encodeURIComponent(id) }).retry.post());
