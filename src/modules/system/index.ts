import { Elysia } from "elysia";
import { authGuard, type BearerResolver } from "../../http/auth-guard";
import { forbidden } from "../../http/errors";
import type { SystemService } from "./service";

const ADMINS_ONLY = "Only admins can start, stop or restart the agent system";

/** Anyone signed in may see whether the system runs (status bar, dashboard); only admins switch it. */
export function systemRoutes(system: SystemService, resolveUser: BearerResolver) {
  return new Elysia({ prefix: "/api/system" })
    .use(authGuard(resolveUser))
    .get("/status", () => system.status(), { auth: "user" })
    .post(
      "/start",
      ({ user }) => {
        if (user.role !== "admin") throw forbidden(ADMINS_ONLY);
        return system.start(user);
      },
      { auth: "user" },
    )
    .post(
      "/stop",
      ({ user }) => {
        if (user.role !== "admin") throw forbidden(ADMINS_ONLY);
        return system.stop(user);
      },
      { auth: "user" },
    )
    .post(
      "/restart",
      ({ user }) => {
        if (user.role !== "admin") throw forbidden(ADMINS_ONLY);
        return system.restart(user);
      },
      { auth: "user" },
    );
}
