import { Elysia } from "elysia";
import { authGuard, type BearerResolver } from "../../http/auth-guard";
import { parseInput } from "../../http/errors";
import { alertBody } from "./alerts/model";
import { digestBody } from "./digest/model";
import { scheduleBody } from "./schedule/model";
import type { WatchService } from "./service";

export function watchRoutes(watch: Pick<WatchService, "schedules" | "alerts" | "digest">, userForAccessToken: BearerResolver) {
  return new Elysia({ prefix: "/api" })
    .use(authGuard(userForAccessToken))
    .put(
      "/comparisons/:id/schedule",
      ({ user, params, body }) => {
        const { cron, timezone } = parseInput(scheduleBody, body);
        return watch.schedules.put(user.id, params.id, cron, timezone);
      },
      { auth: "user" },
    )
    .delete(
      "/comparisons/:id/schedule",
      ({ user, params }) => {
        watch.schedules.remove(user.id, params.id);
        return { ok: true as const };
      },
      { auth: "user" },
    )
    .post(
      "/comparisons/:id/alerts",
      async ({ user, params, body, set }) => {
        const input = parseInput(alertBody, body);
        const alert = await watch.alerts.create(user.id, params.id, input);
        set.status = 201;
        return alert;
      },
      { auth: "user" },
    )
    .get("/comparisons/:id/alerts", ({ user, params }) => watch.alerts.list(user.id, params.id), { auth: "user" })
    .get("/comparisons/:id/alerts/deliveries", ({ user, params }) => watch.alerts.deliveries(user.id, params.id), { auth: "user" })
    .get("/watch/digest", ({ user }) => watch.digest.get(user.id), { auth: "user" })
    .put("/watch/digest", ({ user, body }) => watch.digest.put(user.id, parseInput(digestBody, body)), { auth: "user" })
    .delete(
      "/alerts/:id",
      ({ user, params }) => {
        watch.alerts.remove(user.id, params.id);
        return { ok: true as const };
      },
      { auth: "user" },
    );
}
