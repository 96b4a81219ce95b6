// Share links: the workspace's routes (make, list, revoke) and the public ones a link opens (the run's
// results and its screenshots). Each route declares its params and responses
// (docs/decisions/0004-route-schemas-and-openapi.md).
import { Elysia } from "elysia";
import { z } from "zod";
import { type WorkspaceResolvers, workspaceGuard } from "#server/http/workspace-guard";
import { clientIpPlugin, isHttps } from "#server/http/client-ip";
import { binaryResponse, errors, idParams, noContentResponse, responds } from "#server/http/contract";
import { actorOf } from "#server/modules/audit/model";
import {
  SHARE_RESPONSE_HEADERS,
  createShareBody,
  createdShare,
  shareIdParams,
  shareScreenshotParams,
  shareView,
  sharedResults,
  tokenParams,
} from "./model";
import type { ShareService } from "./service";

/** Where a new link points: PUBLIC_URL, else the origin its maker reached this server at. */
function linkOrigin(request: Request, publicUrl: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  const url = new URL(request.url);
  return `${isHttps(request) ? "https" : "http"}://${url.host}`;
}

export function shareRoutes(shares: ShareService, auth: WorkspaceResolvers, opts: { publicUrl?: string }) {
  return new Elysia({ prefix: "/api", tags: ["share"] })
    .use(clientIpPlugin())
    .use(workspaceGuard(auth))
    .post(
      "/comparisons/:id/shares",
      async ({ user, workspace, params, body, ip, request, set }) => {
        const created = await shares.create(
          workspace.id,
          actorOf(user, ip, request.headers.get("user-agent")),
          params.id,
          body,
          linkOrigin(request, opts.publicUrl),
        );
        set.status = 201;
        // The only answer that carries the token.
        set.headers["cache-control"] = "no-store";
        return created;
      },
      {
        role: "editor",
        params: idParams,
        body: createShareBody,
        response: { 201: responds(createdShare), ...errors(400, 401, 403, 404, 409, 413, 500, 503) },
        detail: { summary: "Share a completed run read-only by link (the latest completed run unless runId says which)" },
      },
    )
    .get("/comparisons/:id/shares", ({ workspace, params }) => shares.list(workspace.id, params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: responds(z.array(shareView)), ...errors(401, 404, 500, 503) },
      detail: { summary: "The comparison's share links, newest first, revoked ones included (never the links themselves)" },
    })
    .delete(
      "/shares/:id",
      async ({ user, workspace, params, ip, request, set }) => {
        await shares.revoke(workspace.id, actorOf(user, ip, request.headers.get("user-agent")), params.id);
        set.status = 204;
      },
      {
        role: "editor",
        params: shareIdParams,
        response: errors(401, 403, 404, 500, 503),
        detail: { summary: "Revoke a share link: it answers 404 from now on", ...noContentResponse("Revoked") },
      },
    );
}

/**
 * What a link opens, without an account: the token is the only credential, and every answer
 * (errors too) carries SHARE_RESPONSE_HEADERS.
 */
export function sharedRoutes(shares: ShareService) {
  return new Elysia({ prefix: "/api/share", tags: ["share"] })
    .get(
      "/:token",
      ({ params, set }) => {
        const results = shares.open(params.token);
        Object.assign(set.headers, SHARE_RESPONSE_HEADERS);
        return results;
      },
      {
        params: tokenParams,
        response: { 200: responds(sharedResults), ...errors(404, 500, 503) },
        detail: { summary: "The shared run's results (a view of the link); unknown, revoked or expired links are 404" },
      },
    )
    .get(
      "/:token/screenshots/:snapshotId",
      async ({ params }) =>
        new Response((await shares.screenshot(params.token, params.snapshotId)).body, {
          headers: { "content-type": "image/png", ...SHARE_RESPONSE_HEADERS },
        }),
      {
        params: shareScreenshotParams,
        response: errors(404, 500, 503),
        detail: { summary: "A screenshot of the shared run (only that run's)", ...binaryResponse("image/png", "The screenshot") },
      },
    );
}
