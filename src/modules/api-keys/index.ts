import { Elysia } from "elysia";
import { type BearerResolver, authGuard } from "../../http/auth-guard";
import { clientIpPlugin } from "../../http/client-ip";
import { parseInput } from "../../http/errors";
import { actorOf } from "../audit/model";
import { type CreatedPersonalKey, createApiKeyBody, createPersonalKeyBody } from "./model";
import type { ApiKeyService } from "./service";

/** Personal keys for scripts and CI; each admin sees and revokes only their own. */
export function apiKeyRoutes(keys: ApiKeyService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/admin/api-keys" })
    .use(clientIpPlugin)
    .use(authGuard(resolve))
    .get("", ({ user }) => ({ keys: keys.list(user.id) }), { auth: "admin" })
    .post(
      "",
      ({ user, body, ip, request, set }) => {
        const created = keys.create(actorOf(user, ip, request.headers.get("user-agent")), parseInput(createApiKeyBody, body));
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return created;
      },
      { auth: "admin" },
    )
    .delete("/:id", ({ user, params, ip, request }) => ({ apiKey: keys.revoke(actorOf(user, ip, request.headers.get("user-agent")), params.id) }), {
      auth: "admin",
    });
}

/** Everyone's own keys (Settings): the same keys, made and revoked by their owner, with a chosen scope. */
export function personalApiKeyRoutes(keys: ApiKeyService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/api-keys" })
    .use(clientIpPlugin)
    .use(authGuard(resolve))
    .get("", ({ user, set }) => {
      set.headers["cache-control"] = "no-store";
      return { keys: keys.list(user.id) };
    }, { auth: "user" })
    .post(
      "",
      ({ user, body, ip, request, set }): CreatedPersonalKey => {
        const { key, apiKey } = keys.create(actorOf(user, ip, request.headers.get("user-agent")), parseInput(createPersonalKeyBody, body), "personal");
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return { id: apiKey.id, name: apiKey.name, scope: apiKey.scope, key, createdAt: apiKey.createdAt };
      },
      { auth: "user" },
    )
    .delete(
      "/:id",
      ({ user, params, ip, request }) => ({ apiKey: keys.revoke(actorOf(user, ip, request.headers.get("user-agent")), params.id, "personal") }),
      { auth: "user" },
    );
}
