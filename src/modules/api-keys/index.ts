import { Elysia } from "elysia";
import { z } from "zod";
import { type BearerResolver, authGuard } from "#server/http/auth-guard";
import { clientIpPlugin } from "#server/http/client-ip";
import { errors, idParams, responds } from "#server/http/contract";
import { workspaceGuard, type WorkspaceResolvers } from "#server/http/workspace-guard";
import { workspaceRoutesGuard } from "#server/modules/workspaces/public";
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
  workspaceKeyList,
} from "./model";
import type { ApiKeyService } from "./service";

/** What the key routes need of the auth service: who the bearer is, and their workspace. */
export type KeyAuth = WorkspaceResolvers & { userForAccessToken: BearerResolver };

/**
 * An admin's own keys for scripts and CI, in their current workspace; here each admin sees and
 * revokes only their own (everyone's: allApiKeyRoutes). Both guards run: the console is for
 * administrators, and the key is bound to the workspace the request acts in.
 */
export function apiKeyRoutes(keys: ApiKeyService, auth: KeyAuth) {
  return new Elysia({ prefix: "/api/admin/api-keys", tags: ["api-keys"] })
    .use(clientIpPlugin())
    .use(authGuard(auth.userForAccessToken))
    .use(workspaceGuard(auth))
    .get("", async ({ user, workspace }) => ({ keys: await keys.list(user.id, workspace.id) }), {
      auth: "admin",
      role: "viewer",
      response: { 200: responds(apiKeyList), ...errors(401, 403, 500, 503) },
      detail: { summary: "Your API keys (never the keys themselves)" },
    })
    .post(
      "",
      async ({ user, workspace, body, ip, request, set }) => {
        const created = await keys.create(actorOf(user, ip, request.headers.get("user-agent")), workspace.id, body);
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return created;
      },
      {
        auth: "admin",
        role: "viewer",
        body: createApiKeyBody,
        response: { 201: responds(createdApiKey), ...errors(400, 401, 403, 409, 413, 500, 503) },
        detail: { summary: "Create a key; the only answer that carries it" },
      },
    )
    .delete(
      "/:id",
      async ({ user, workspace, params, ip, request }) => ({
        apiKey: await keys.revoke(actorOf(user, ip, request.headers.get("user-agent")), workspace.id, params.id),
      }),
      {
        auth: "admin",
        role: "viewer",
        params: idParams,
        response: { 200: responds(revokedApiKey), ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Revoke one of your keys" },
      },
    );
}

/**
 * The admin console's view of every user's keys, with their owners' e-mails and workspaces, and
 * revoking any of them. Only ever what the lists show: the keys themselves are stored hashed and never come back.
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
        detail: { summary: "Every user's API keys with their owners and workspaces, newest first, paged and searchable" },
      },
    )
    .delete(
      "/:id",
      async ({ user, params, ip, request }) => ({
        apiKey: await keys.revokeAny(actorOf(user, ip, request.headers.get("user-agent")), params.id),
      }),
      {
        auth: "admin",
        params: idParams,
        response: { 200: responds(revokedOwnedKey), ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Revoke any user's key; it answers 401 from then on" },
      },
    );
}

/**
 * Everyone's own keys (Settings), in the request's current workspace: made and revoked by their
 * owner, with a chosen scope. Any member may make one; it acts with their role of the moment, so a
 * viewer's key reads and nothing more.
 */
export function personalApiKeyRoutes(keys: ApiKeyService, auth: WorkspaceResolvers) {
  return new Elysia({ prefix: "/api/api-keys", tags: ["api-keys"] })
    .use(clientIpPlugin())
    .use(workspaceGuard(auth))
    .get(
      "",
      async ({ user, workspace, set }) => {
        set.headers["cache-control"] = "no-store";
        return { keys: await keys.list(user.id, workspace.id) };
      },
      {
        role: "viewer",
        response: { 200: responds(apiKeyList), ...errors(401, 404, 500, 503) },
        detail: { summary: "Your API keys in the current workspace, with scope and last use (never the keys themselves)" },
      },
    )
    .post(
      "",
      async ({ user, workspace, body, ip, request, set }): Promise<CreatedPersonalKey> => {
        const { key, apiKey } = await keys.create(actorOf(user, ip, request.headers.get("user-agent")), workspace.id, body, "personal");
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        return { id: apiKey.id, name: apiKey.name, scope: apiKey.scope, key, createdAt: apiKey.createdAt };
      },
      {
        role: "viewer",
        body: createPersonalKeyBody,
        response: { 201: responds(createdPersonalKey), ...errors(400, 401, 403, 404, 409, 413, 500, 503) },
        detail: {
          summary: "Create a key bound to the current workspace, with a scope (read or run); the only answer that carries it",
          description: "The key acts in this workspace only, with your role there at the time of each request.",
        },
      },
    )
    .delete(
      "/:id",
      async ({ user, workspace, params, ip, request }) => ({
        apiKey: await keys.revoke(actorOf(user, ip, request.headers.get("user-agent")), workspace.id, params.id, "personal"),
      }),
      {
        role: "viewer",
        params: idParams,
        response: { 200: responds(revokedApiKey), ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Revoke one of your keys in the current workspace; it answers 401 from then on" },
      },
    );
}

const workspaceKeyParams = z.object({ id: z.string(), keyId: z.string() });

/** A workspace's admins and owners see every member's keys there, and revoke any of them (a departed colleague's CI). */
export function workspaceApiKeyRoutes(keys: ApiKeyService, auth: WorkspaceResolvers) {
  return new Elysia({ prefix: "/api/workspaces/:id/api-keys", tags: ["api-keys"] })
    .use(clientIpPlugin())
    .use(workspaceRoutesGuard(auth))
    .get(
      "",
      async ({ workspace, set }) => {
        set.headers["cache-control"] = "no-store";
        return { keys: await keys.listInWorkspace(workspace.id) };
      },
      {
        member: "admin",
        params: idParams,
        response: { 200: responds(workspaceKeyList), ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Every member's API keys in the workspace, newest first (admins and owners; never the keys themselves)" },
      },
    )
    .delete(
      "/:keyId",
      async ({ user, workspace, params, ip, request }) => ({
        apiKey: await keys.revokeInWorkspace(actorOf(user, ip, request.headers.get("user-agent")), workspace.id, params.keyId),
      }),
      {
        member: "admin",
        params: workspaceKeyParams,
        response: { 200: responds(revokedOwnedKey), ...errors(401, 403, 404, 500, 503) },
        detail: { summary: "Revoke a member's key in the workspace; it answers 401 from then on" },
      },
    );
}
