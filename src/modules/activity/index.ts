import { Elysia } from "elysia";
import { z } from "zod";
import { workspaceGuard, type WorkspaceResolvers } from "#server/http/workspace-guard";
import { errors, responds } from "#server/http/contract";
import { activityEntryDto, activityQuery } from "./model";
import type { ActivityService } from "./service";

/** The current workspace's entries and the shared ones (site admins oversee every entry). */
export function activityRoutes(activity: ActivityService, auth: WorkspaceResolvers) {
  return new Elysia({ prefix: "/api", tags: ["activity"] })
    .use(workspaceGuard(auth))
    .get("/activity", ({ query, user, workspace }) => activity.list({ id: workspace.id, role: user.role }, query), {
      role: "viewer",
      query: activityQuery,
      response: { 200: responds(z.array(activityEntryDto)), ...errors(400, 401, 404, 500, 503) },
      detail: { summary: "The activity log, newest first" },
    });
}
