import { Elysia } from "elysia";
import { type BearerResolver, authGuard } from "../../http/auth-guard";
import { clientIpPlugin } from "../../http/client-ip";
import { parseInput } from "../../http/errors";
import { actorOf } from "../audit/model";
import { isHttps } from "../auth";
import { alertSettings, maintenanceBody } from "./model";
import type { AdminService } from "./service";

const noStore = { "cache-control": "no-store" };

export function adminRoutes(admin: AdminService, resolve: BearerResolver) {
  return (
    new Elysia()
      // Public: the app asks this to decide whether to show its maintenance screen.
      .get("/api/maintenance", () => {
        const { enabled, message } = admin.maintenance.state();
        return { enabled, message };
      })
      .group("/api/admin", (g) =>
        g
          .use(clientIpPlugin)
    .use(authGuard(resolve))
          .get("/system-metrics", () => admin.systemMetrics(), { auth: "admin" })
          .get("/database-stats", () => admin.databaseStats(), { auth: "admin" })
          .get("/maintenance", () => admin.maintenance.state(), { auth: "admin" })
          .post(
            "/maintenance",
            ({ user, body, ip, request }) =>
              admin.maintenance.set(actorOf(user, ip, request.headers.get("user-agent")), parseInput(maintenanceBody, body).enabled),
            { auth: "admin" },
          )
          .get("/backups", () => ({ backups: admin.backups.list() }), { auth: "admin" })
          .post(
            "/backups",
            ({ user, ip, request, set }) => {
              const backup = admin.backups.create(actorOf(user, ip, request.headers.get("user-agent")));
              set.status = 201;
              return { backup };
            },
            { auth: "admin" },
          )
          .get(
            "/backups/:name",
            ({ user, params, ip, request }) => {
              const { path, name } = admin.backups.fileFor(actorOf(user, ip, request.headers.get("user-agent")), params.name);
              return new Response(Bun.file(path), {
                headers: {
                  "content-type": "application/vnd.sqlite3",
                  "content-disposition": `attachment; filename="${name}"`,
                  ...noStore,
                },
              });
            },
            { auth: "admin" },
          )
          .get("/alert-settings", () => admin.alerts.get(), { auth: "admin" })
          .put(
            "/alert-settings",
            ({ user, body, ip, request }) =>
              admin.alerts.save(actorOf(user, ip, request.headers.get("user-agent")), parseInput(alertSettings, body)),
            { auth: "admin" },
          )
          .get("/security-report", ({ request }) => admin.securityReport(isHttps(request)), { auth: "admin" }),
      )
  );
}
