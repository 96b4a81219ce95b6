// The run history API: a comparison's runs, and one run as it was. Each route declares its params
// and responses (docs/decisions/0004-route-schemas-and-openapi.md).
import { Elysia } from "elysia";
import { z } from "zod";
import { type WorkspaceResolvers, workspaceGuard } from "#server/http/workspace-guard";
import { errors, idParams, responds } from "#server/http/contract";
import { runDetail, runDto, runParams } from "./model";
import type { HistoryService } from "./service";

export function historyRoutes(history: HistoryService, auth: WorkspaceResolvers) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(workspaceGuard(auth))
    .get("/comparisons/:id/runs", ({ workspace, params }) => history.listRuns(workspace.id, params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: responds(z.array(runDto)), ...errors(401, 404, 500, 503) },
      detail: { summary: "The comparison's runs, newest first, with their change counts" },
    })
    .get("/comparisons/:id/runs/:runId", ({ workspace, params }) => history.getRun(workspace.id, params.id, params.runId), {
      role: "viewer",
      params: runParams,
      response: { 200: responds(runDetail), ...errors(401, 404, 500, 503) },
      detail: { summary: "One run's snapshots, scores and findings, as they were" },
    });
}
