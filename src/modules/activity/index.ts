import { Elysia } from "elysia";
import { authGuard, type BearerResolver } from "../../http/auth-guard";
import { parseInput } from "../../http/errors";
import { activityQuery } from "./model";
import type { ActivityService } from "./service";

export function activityRoutes(activity: ActivityService, resolveUser: BearerResolver) {
  return new Elysia({ prefix: "/api" })
    .use(authGuard(resolveUser))
    .get("/activity", ({ query, user }) => activity.list(user, parseInput(activityQuery, query)), { auth: "user" });
}
