import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard, type BearerResolver } from "#server/http/auth-guard";
import { errors, responds } from "#server/http/contract";
import { activityEntryDto, activityQuery } from "./model";
import type { ActivityService } from "./service";

export function activityRoutes(activity: ActivityService, resolveUser: BearerResolver) {
  return new Elysia({ prefix: "/api", tags: ["activity"] })
    .use(authGuard(resolveUser))
    .get("/activity", ({ query, user }) => activity.list(user, query), {
      auth: "user",
      query: activityQuery,
      response: { 200: responds(z.array(activityEntryDto)), ...errors(400, 401, 500, 503) },
      detail: { summary: "The activity log, newest first" },
    });
}
