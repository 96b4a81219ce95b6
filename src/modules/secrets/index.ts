// Site secrets: set, list (names only) and delete, on the workspace's targets. Values go in and never
// come back out over HTTP; capture steps read them through the service (reveal).
import { Elysia } from "elysia";
import { z } from "zod";
import { type WorkspaceResolvers, workspaceGuard } from "#server/http/workspace-guard";
import { clientIpPlugin } from "#server/http/client-ip";
import { errors, idParams, noContentResponse, responds } from "#server/http/contract";
import { actorOf } from "#server/modules/audit/model";
import { MAX_SECRET_BYTES, MAX_SECRETS_PER_SITE, putSecretBody, secretParams, secretView } from "./model";
import type { SecretsService } from "./service";

export function secretsRoutes(secrets: SecretsService, auth: WorkspaceResolvers) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(clientIpPlugin())
    .use(workspaceGuard(auth))
    .get("/targets/:id/secrets", ({ workspace, params }) => secrets.list(workspace.id, params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: responds(z.array(secretView)), ...errors(401, 404, 500, 503) },
      detail: { summary: "A target's secrets by name (never their values)" },
    })
    .put(
      "/targets/:id/secrets/:name",
      async ({ user, workspace, params, body, ip, request, set }) => {
        await secrets.put(workspace.id, actorOf(user, ip, request.headers.get("user-agent")), params.id, params.name, body.value);
        set.status = 204;
      },
      {
        role: "editor",
        params: secretParams,
        body: putSecretBody,
        response: errors(400, 401, 403, 404, 409, 413, 500, 503),
        detail: {
          summary: "Set a secret of a target's site",
          description: `Stored encrypted (AES-256-GCM) and never returned by any route. Capture steps use it as \`{{secret:name}}\`. Up to ${MAX_SECRET_BYTES} bytes; 409: the site already keeps ${MAX_SECRETS_PER_SITE} others.`,
          ...noContentResponse("Saved"),
        },
      },
    )
    .delete(
      "/targets/:id/secrets/:name",
      async ({ user, workspace, params, ip, request, set }) => {
        await secrets.remove(workspace.id, actorOf(user, ip, request.headers.get("user-agent")), params.id, params.name);
        set.status = 204;
      },
      {
        role: "editor",
        params: secretParams,
        response: errors(400, 401, 403, 404, 500, 503),
        detail: { summary: "Delete a secret of a target's site", ...noContentResponse("Deleted") },
      },
    );
}
