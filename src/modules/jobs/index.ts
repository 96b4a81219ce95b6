import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard, type BearerResolver } from "#server/http/auth-guard";
import { errors, idParams, responds } from "#server/http/contract";
import { jobsQuery, jobView } from "./model";
import type { JobsService } from "./service";

/** The console's view of the jobs table: list by state, and retry a dead job. Admins only. */
export function jobsAdminRoutes(jobs: Pick<JobsService, "list" | "retry">, resolve: BearerResolver, onRetry?: () => void) {
  return new Elysia({ prefix: "/api/admin/jobs", tags: ["admin"] })
    .use(authGuard(resolve))
    .get("", ({ query }) => jobs.list(query.state), {
      auth: "admin",
      query: jobsQuery,
      response: { 200: responds(z.array(jobView)), ...errors(400, 401, 403, 500, 503) },
      detail: { summary: "Jobs in one state (queued, running, failed, dead, done), or every job not done, latest change first" },
    })
    .post(
      "/:id/retry",
      async ({ params }) => {
        const job = await jobs.retry(params.id);
        onRetry?.();
        return job;
      },
      {
        auth: "admin",
        params: idParams,
        response: { 200: responds(jobView), ...errors(401, 403, 404, 409, 500, 503) },
        detail: { summary: "Queue a dead job again with its attempts reset" },
      },
    );
}
