import { Elysia } from "elysia";
import { type BearerResolver, authGuard } from "#server/http/auth-guard";
import { clientIpPlugin } from "#server/http/client-ip";
import { errors, idParams, responds } from "#server/http/contract";
import { actorOf } from "#server/modules/audit/model";
import {
  type CreatedPersonalKey,
  allKeysPage,
  allKeysQuery,
  apiKeyList,
  createApiKeyBody,
  createPersonalKeyBody,
  createdApiKey,
  createdPersonalKey,
  revokedApiKey,
  revokedOwnedKey,
} from "./model";
import type { ApiKeyService } from "./service";

/** An admin's own keys for scripts and CI; here each admin sees and revokes only their own (everyone's: allApiKeyRoutes). */
export function apiKeyRoutes(keys: ApiKeyService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/admin/api-keys", tags: ["api-keys"] })
    .use(clientIpPlugin())
    .use(authGuard(resolve))
    .get("", ({ user }) => ({ keys: keys.list(user.id) }), {
      auth: "admin",
      response: { 200: responds(apiKeyList), ...errors(401, 403, 500, 503) },
      detail: { summary: "Your API keys (never the keys themselves)" },
    })
    .post(
      "",
      ({ user, body, ip, request, set }) => {
        const created = keys.create(actorOf(user, ip, request.headers.get("user-agent")), body);
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return created;
      },
      {
        auth: "admin",
        body: createApiKeyBody,
        response: { 201: responds(createdApiKey), ...errors(400, 401, 403, 409, 413, 500, 503) },
        detail: { summary: "Create a key; the only answer that carries it" },
      },
    )
    .delete(
      "/:id",
      ({ user, params, ip, request }) => ({ apiKey: keys.revoke(actorOf(user, ip, request.headers.get("user-agent")), params.id) }),
      {
        auth: "admin",
        params: idParams,
        response: { 200: responds(revokedApiKey), ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Revoke one of your keys" },
      },
    );
}

/**
 * The admin console's view of every user's keys, with their owners' e-mails, and revoking any of
 * them. Only ever what the lists show: the keys themselves are stored hashed and never come back.
 */
export function allApiKeyRoutes(keys: ApiKeyService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/admin/all-api-keys", tags: ["api-keys"] })
    .use(clientIpPlugin())
    .use(authGuard(resolve))
    .get(
      "",
      ({ query, set }) => {
        set.headers["cache-control"] = "no-store";
        return keys.listAll(query);
      },
      {
        auth: "admin",
        query: allKeysQuery,
        response: { 200: responds(allKeysPage), ...errors(400, 401, 403, 500, 503) },
        detail: { summary: "Every user's API keys with their owners, newest first, paged and searchable" },
      },
    )
    .delete(
      "/:id",
      ({ user, params, ip, request }) => ({ apiKey: keys.revokeAny(actorOf(user, ip, request.headers.get("user-agent")), params.id) }),
      {
        auth: "admin",
        params: idParams,
        response: { 200: responds(revokedOwnedKey), ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Revoke any user's key; it answers 401 from then on" },
      },
    );
}

/** Everyone's own keys (Settings): the same keys, made and revoked by their owner, with a chosen scope. */
export function personalApiKeyRoutes(keys: ApiKeyService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/api-keys", tags: ["api-keys"] })
    .use(clientIpPlugin())
    .use(authGuard(resolve))
    .get(
      "",
      ({ user, set }) => {
        set.headers["cache-control"] = "no-store";
        return { keys: keys.list(user.id) };
      },
      {
        auth: "user",
        response: { 200: responds(apiKeyList), ...errors(401, 500, 503) },
        detail: { summary: "Your API keys with scope and last use (never the keys themselves)" },
      },
    )
    .post(
      "",
      ({ user, body, ip, request, set }): CreatedPersonalKey => {
        const { key, apiKey } = keys.create(actorOf(user, ip, request.headers.get("user-agent")), body, "personal");
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return { id: apiKey.id, name: apiKey.name, scope: apiKey.scope, key, createdAt: apiKey.createdAt };
      },
      {
        auth: "user",
        body: createPersonalKeyBody,
        response: { 201: responds(createdPersonalKey), ...errors(400, 401, 403, 409, 413, 500, 503) },
        detail: { summary: "Create a key with a scope (read or run); the only answer that carries it" },
      },
    )
    .delete(
      "/:id",
      ({ user, params, ip, request }) => ({
        apiKey: keys.revoke(actorOf(user, ip, request.headers.get("user-agent")), params.id, "personal"),
      }),
      {
        auth: "user",
        params: idParams,
        response: { 200: responds(revokedApiKey), ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Revoke one of your keys; it answers 401 from then on" },
      },
    );
}
