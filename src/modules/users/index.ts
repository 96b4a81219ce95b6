import { Elysia } from "elysia";
import { type BearerResolver, authGuard } from "../../http/auth-guard";
import { clientIpPlugin } from "../../http/client-ip";
import { parseInput } from "../../http/errors";
import { actorOf } from "../audit/model";
import { updateUserBody, userListQuery } from "./model";
import type { UsersService } from "./service";

export function usersRoutes(users: UsersService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/admin/users" })
    .use(clientIpPlugin)
    .use(authGuard(resolve))
    .get("", ({ query }) => users.list(parseInput(userListQuery, query)), { auth: "admin" })
    .patch(
      "/:id",
      ({ user, params, body, ip, request }) => ({
        user: users.update(actorOf(user, ip, request.headers.get("user-agent")), params.id, parseInput(updateUserBody, body)),
      }),
      { auth: "admin" },
    );
}
