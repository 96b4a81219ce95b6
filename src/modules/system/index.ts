import { Elysia } from "elysia";
import { authGuard, type BearerResolver } from "#server/http/auth-guard";
import { errors, responds } from "#server/http/contract";
import { forbidden } from "#server/http/errors";
import { systemStatusDto } from "./model";
import type { SystemService } from "./service";

const ADMINS_ONLY = "Only admins can start, stop or restart the agent system";
const status = responds(systemStatusDto);
const switchErrors = errors(401, 403, 500, 503);

/** Anyone signed in may see whether the system runs (status bar, dashboard); only admins switch it. */
export function systemRoutes(system: SystemService, resolveUser: BearerResolver) {
  return new Elysia({ prefix: "/api/system", tags: ["system"] })
    .use(authGuard(resolveUser))
    .get("/status", () => system.status(), {
      auth: "user",
      response: { 200: status, ...errors(401, 500, 503) },
      detail: { summary: "Whether the agent system is on and running" },
    })
    .post(
      "/start",
      ({ user }) => {
        if (user.role !== "admin") throw forbidden(ADMINS_ONLY);
        return system.start(user);
      },
      { auth: "user", response: { 200: status, ...switchErrors }, detail: { summary: "Switch the agent system on (admins)" } },
    )
    .post(
      "/stop",
      ({ user }) => {
        if (user.role !== "admin") throw forbidden(ADMINS_ONLY);
        return system.stop(user);
      },
      { auth: "user", response: { 200: status, ...switchErrors }, detail: { summary: "Switch the agent system off (admins)" } },
    )
    .post(
      "/restart",
      ({ user }) => {
        if (user.role !== "admin") throw forbidden(ADMINS_ONLY);
        return system.restart(user);
      },
      { auth: "user", response: { 200: status, ...switchErrors }, detail: { summary: "Restart the agent worker (admins)" } },
    );
}
