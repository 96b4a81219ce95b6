import { Elysia } from "elysia";
import { z } from "zod";
import { type BearerResolver, authGuard } from "#server/http/auth-guard";
import { clientIpPlugin } from "#server/http/client-ip";
import { binaryResponse, errors, responds } from "#server/http/contract";
import { actorOf } from "#server/modules/audit/model";
import { isHttps } from "#server/modules/auth";
import {
  alertSettings,
  alertSettingsAnswer,
  backupInfo,
  backupNameParam,
  databaseStats,
  maintenanceBody,
  maintenanceState,
  ongoingAlerts,
  securityReport,
  systemMetrics,
} from "./model";
import type { AdminService } from "./service";

const noStore = { "cache-control": "no-store" };
const adminErrors = errors(401, 403, 500, 503);

export function adminRoutes(admin: AdminService, resolve: BearerResolver) {
  return (
    new Elysia({ tags: ["admin"] })
      // Public: the app asks this to decide whether to show its maintenance screen.
      .get(
        "/api/maintenance",
        () => {
          const { enabled, message } = admin.maintenance.state();
          return { enabled, message };
        },
        {
          response: { 200: responds(maintenanceState.pick({ enabled: true, message: true })), ...errors(500, 503) },
          detail: { summary: "Whether the app is in maintenance mode (public)" },
        },
      )
      .group("/api/admin", (g) =>
        g
          .use(clientIpPlugin())
          .use(authGuard(resolve))
          .get("/system-metrics", () => admin.systemMetrics(), {
            auth: "admin",
            response: { 200: responds(systemMetrics), ...adminErrors },
            detail: { summary: "Host and process metrics" },
          })
          .get("/database-stats", () => admin.databaseStats(), {
            auth: "admin",
            response: { 200: responds(databaseStats), ...adminErrors },
            detail: { summary: "Database size, activity and backup health" },
          })
          .get("/maintenance", () => admin.maintenance.state(), {
            auth: "admin",
            response: { 200: responds(maintenanceState), ...adminErrors },
            detail: { summary: "Maintenance mode with who switched it and when" },
          })
          .post(
            "/maintenance",
            ({ user, body, ip, request }) => admin.maintenance.set(actorOf(user, ip, request.headers.get("user-agent")), body.enabled),
            {
              auth: "admin",
              body: maintenanceBody,
              response: { 200: responds(maintenanceState), ...errors(400, 401, 403, 413, 500, 503) },
              detail: { summary: "Switch maintenance mode" },
            },
          )
          .get("/backups", async () => ({ backups: await admin.backups.list() }), {
            auth: "admin",
            response: { 200: responds(z.object({ backups: z.array(backupInfo) })), ...adminErrors },
            detail: { summary: "Database backups, newest first" },
          })
          .post(
            "/backups",
            async ({ user, ip, request, set }) => {
              const backup = await admin.backups.create(actorOf(user, ip, request.headers.get("user-agent")));
              set.status = 201;
              return { backup };
            },
            {
              auth: "admin",
              response: { 201: responds(z.object({ backup: backupInfo })), ...adminErrors },
              detail: { summary: "Back up the database now" },
            },
          )
          .get(
            "/backups/:name",
            async ({ user, params, ip, request }) => {
              const { body, name } = await admin.backups.open(actorOf(user, ip, request.headers.get("user-agent")), params.name);
              return new Response(body, {
                headers: {
                  "content-type": "application/vnd.sqlite3",
                  "content-disposition": `attachment; filename="${name}"`,
                  ...noStore,
                },
              });
            },
            {
              auth: "admin",
              params: backupNameParam,
              response: errors(400, 401, 403, 404, 500, 503),
              detail: { summary: "Download one backup", ...binaryResponse("application/vnd.sqlite3", "The SQLite database file") },
            },
          )
          .get("/alert-settings", () => admin.hostAlerts.get(), {
            auth: "admin",
            response: { 200: responds(alertSettingsAnswer), ...adminErrors },
            detail: { summary: "Alert thresholds and the channels this server can deliver on" },
          })
          .put(
            "/alert-settings",
            ({ user, body, ip, request }) => admin.hostAlerts.save(actorOf(user, ip, request.headers.get("user-agent")), body),
            {
              auth: "admin",
              body: alertSettings,
              response: { 200: responds(alertSettingsAnswer), ...errors(400, 401, 403, 413, 500, 503) },
              detail: { summary: "Save alert thresholds" },
            },
          )
          .get("/alerts", () => admin.hostAlerts.ongoing(), {
            auth: "admin",
            response: { 200: responds(ongoingAlerts), ...adminErrors },
            detail: { summary: "Host alerts still open, each with its start, peak and duration (one per crossing)" },
          })
          .get("/security-report", ({ request }) => admin.securityReport(isHttps(request)), {
            auth: "admin",
            response: { 200: responds(securityReport), ...adminErrors },
            detail: { summary: "Accounts, keys and transport security at a glance" },
          }),
      )
  );
}
