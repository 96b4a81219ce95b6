import { Elysia } from "elysia";
import { z } from "zod";
import { errors, idParams, okAnswer, responds } from "#server/http/contract";
import { workspaceGuard, type WorkspaceResolvers } from "#server/http/workspace-guard";
import { alertRequest, alertView, deliveryView, toAlertBody } from "./alerts/model";
import { digestBody, digestView } from "./digest/model";
import { scheduleBody, scheduleView } from "./schedule/model";
import type { WatchService } from "./service";

const ok = responds(okAnswer);

/**
 * Schedules and alert rules belong to the current workspace's comparisons: members read them,
 * editors change them. The digest setting is each person's own (it covers every workspace whose
 * alerts they receive), and so is that choice, per workspace (on their member entry).
 */
export function watchRoutes(watch: Pick<WatchService, "schedules" | "alerts" | "digest">, auth: WorkspaceResolvers) {
  return new Elysia({ prefix: "/api", tags: ["watch"] })
    .use(workspaceGuard(auth))
    .put(
      "/comparisons/:id/schedule",
      ({ workspace, params, body }) => watch.schedules.put(workspace.id, params.id, body.cron, body.timezone),
      {
        role: "editor",
        params: idParams,
        body: scheduleBody,
        response: { 200: responds(scheduleView), ...errors(400, 401, 403, 404, 413, 500, 503) },
        detail: { summary: "Watch a comparison on a cron schedule (5 fields, IANA zone; at most once a minute)" },
      },
    )
    .delete(
      "/comparisons/:id/schedule",
      async ({ workspace, params }) => {
        await watch.schedules.remove(workspace.id, params.id);
        return { ok: true as const };
      },
      {
        role: "editor",
        params: idParams,
        response: { 200: ok, ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Stop watching a comparison on a schedule" },
      },
    )
    .post(
      "/comparisons/:id/alerts",
      async ({ workspace, params, body, set }) => {
        const alert = await watch.alerts.create(workspace.id, params.id, toAlertBody(body));
        set.status = 201;
        return alert;
      },
      {
        role: "editor",
        params: idParams,
        body: alertRequest,
        response: { 201: responds(alertView), ...errors(400, 401, 403, 404, 409, 413, 500, 503) },
        detail: {
          summary: "Alert on a comparison's changes by webhook, by e-mail, or to the workspace's members",
          description:
            'channel "members" mails every member of the workspace who receives alerts (each chooses for themselves: PATCH /api/workspaces/:id/members/:userId { alerts }), as they are at each delivery.',
        },
      },
    )
    .get("/comparisons/:id/alerts", ({ workspace, params }) => watch.alerts.list(workspace.id, params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: responds(z.array(alertView)), ...errors(401, 404, 500, 503) },
      detail: { summary: "A comparison's alert rules" },
    })
    .get("/comparisons/:id/alerts/deliveries", ({ workspace, params }) => watch.alerts.deliveries(workspace.id, params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: responds(z.array(deliveryView)), ...errors(401, 404, 500, 503) },
      detail: { summary: "Alert deliveries of a comparison, newest first, with attempts and the last error" },
    })
    .delete(
      "/alerts/:id",
      async ({ workspace, params }) => {
        await watch.alerts.remove(workspace.id, params.id);
        return { ok: true as const };
      },
      {
        role: "editor",
        params: idParams,
        response: { 200: ok, ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Delete an alert rule" },
      },
    )
    .get("/watch/digest", ({ user }) => watch.digest.get(user.id), {
      role: "viewer",
      response: { 200: responds(digestView), ...errors(401, 404, 500, 503) },
      detail: { summary: "Your watch digest setting (it covers every workspace whose alerts you receive)" },
    })
    .put("/watch/digest", ({ user, body }) => watch.digest.put(user.id, body), {
      role: "viewer",
      body: digestBody,
      response: { 200: responds(digestView), ...errors(400, 401, 404, 413, 500, 503) },
      detail: { summary: "Turn the daily or weekly watch digest on or off" },
    });
}
