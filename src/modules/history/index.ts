// The run history API: a comparison's runs, and one run as it was. Each route declares its params
// and responses (docs/decisions/0004-route-schemas-and-openapi.md).
import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard } from "#server/http/auth-guard";
import { errors, idParams, responds } from "#server/http/contract";
import type { AuthService } from "#server/modules/auth/service";
import { runDetail, runDto, runParams } from "./model";
import type { HistoryService } from "./service";

export function historyRoutes(history: HistoryService, auth: Pick<AuthService, "userForAccessToken">) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(authGuard(auth.userForAccessToken))
    .get("/comparisons/:id/runs", ({ user, params }) => history.listRuns(user.id, params.id), {
      auth: "user",
      params: idParams,
      response: { 200: responds(z.array(runDto)), ...errors(401, 404, 500, 503) },
      detail: { summary: "The comparison's runs, newest first, with their change counts" },
    })
    .get("/comparisons/:id/runs/:runId", ({ user, params }) => history.getRun(user.id, params.id, params.runId), {
      auth: "user",
      params: runParams,
      response: { 200: responds(runDetail), ...errors(401, 404, 500, 503) },
      detail: { summary: "One run's snapshots, scores and findings, as they were" },
    });
}
