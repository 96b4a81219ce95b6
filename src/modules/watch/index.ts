import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard, type BearerResolver } from "#server/http/auth-guard";
import { errors, idParams, okAnswer, responds } from "#server/http/contract";
import { alertRequest, alertView, deliveryView, toAlertBody } from "./alerts/model";
import { digestBody, digestView } from "./digest/model";
import { scheduleBody, scheduleView } from "./schedule/model";
import type { WatchService } from "./service";

const ok = responds(okAnswer);

export function watchRoutes(watch: Pick<WatchService, "schedules" | "alerts" | "digest">, userForAccessToken: BearerResolver) {
  return new Elysia({ prefix: "/api", tags: ["watch"] })
    .use(authGuard(userForAccessToken))
    .put("/comparisons/:id/schedule", ({ user, params, body }) => watch.schedules.put(user.id, params.id, body.cron, body.timezone), {
      auth: "user",
      params: idParams,
      body: scheduleBody,
      response: { 200: responds(scheduleView), ...errors(400, 401, 404, 413, 500, 503) },
      detail: { summary: "Watch a comparison on a cron schedule (5 fields, IANA zone; at most once a minute)" },
    })
    .delete(
      "/comparisons/:id/schedule",
      ({ user, params }) => {
        watch.schedules.remove(user.id, params.id);
        return { ok: true as const };
      },
      {
        auth: "user",
        params: idParams,
        response: { 200: ok, ...errors(401, 404, 500, 503) },
        detail: { summary: "Stop watching a comparison on a schedule" },
      },
    )
    .post(
      "/comparisons/:id/alerts",
      async ({ user, params, body, set }) => {
        const alert = await watch.alerts.create(user.id, params.id, toAlertBody(body));
        set.status = 201;
        return alert;
      },
      {
        auth: "user",
        params: idParams,
        body: alertRequest,
        response: { 201: responds(alertView), ...errors(400, 401, 404, 409, 413, 500, 503) },
        detail: { summary: "Alert on a comparison's changes by webhook or e-mail" },
      },
    )
    .get("/comparisons/:id/alerts", ({ user, params }) => watch.alerts.list(user.id, params.id), {
      auth: "user",
      params: idParams,
      response: { 200: responds(z.array(alertView)), ...errors(401, 404, 500, 503) },
      detail: { summary: "A comparison's alert rules" },
    })
    .get("/comparisons/:id/alerts/deliveries", ({ user, params }) => watch.alerts.deliveries(user.id, params.id), {
      auth: "user",
      params: idParams,
      response: { 200: responds(z.array(deliveryView)), ...errors(401, 404, 500, 503) },
      detail: { summary: "Alert deliveries of a comparison, newest first, with attempts and the last error" },
    })
    .delete(
      "/alerts/:id",
      ({ user, params }) => {
        watch.alerts.remove(user.id, params.id);
        return { ok: true as const };
      },
      {
        auth: "user",
        params: idParams,
        response: { 200: ok, ...errors(401, 404, 500, 503) },
        detail: { summary: "Delete an alert rule" },
      },
    )
    .get("/watch/digest", ({ user }) => watch.digest.get(user.id), {
      auth: "user",
      response: { 200: responds(digestView), ...errors(401, 500, 503) },
      detail: { summary: "Your watch digest setting" },
    })
    .put("/watch/digest", ({ user, body }) => watch.digest.put(user.id, body), {
      auth: "user",
      body: digestBody,
      response: { 200: responds(digestView), ...errors(400, 401, 413, 500, 503) },
      detail: { summary: "Turn the daily or weekly watch digest on or off" },
    });
}
