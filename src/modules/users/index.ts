import { Elysia } from "elysia";
import { z } from "zod";
import { type BearerResolver, authGuard } from "#server/http/auth-guard";
import { clientIpPlugin } from "#server/http/client-ip";
import { errors, idParams, responds } from "#server/http/contract";
import { actorOf } from "#server/modules/audit/model";
import { managedUser, updateUserBody, userListQuery, userPage } from "./model";
import type { UsersService } from "./service";

export function usersRoutes(users: UsersService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/admin/users", tags: ["users"] })
    .use(clientIpPlugin())
    .use(authGuard(resolve))
    .get("", ({ query }) => users.list(query), {
      auth: "admin",
      query: userListQuery,
      response: { 200: responds(userPage), ...errors(400, 401, 403, 500, 503) },
      detail: { summary: "Accounts, paged and searchable" },
    })
    .patch(
      "/:id",
      async ({ user, params, body, ip, request }) => ({
        user: await users.update(actorOf(user, ip, request.headers.get("user-agent")), params.id, body),
      }),
      {
        auth: "admin",
        params: idParams,
        body: updateUserBody,
        response: { 200: responds(z.object({ user: managedUser })), ...errors(400, 401, 403, 404, 409, 413, 500, 503) },
        detail: { summary: "Disable, enable, promote or demote an account" },
      },
    );
}
