import { Elysia } from "elysia";
import { z } from "zod";
import { BEARER_SECURITY, bearerToken } from "#server/http/auth-guard";
import { workspaceGuard } from "#server/http/workspace-guard";
import { cachedJson } from "#server/http/cached-json";
import { syncHandler, type SyncContext } from "#server/http/sync-handler";
import { binaryResponse, errors, idParams, okAnswer, responds } from "#server/http/contract";
import { readCookie } from "#server/http/cookies";
import { clientIp } from "#server/http/client-ip";
import { notFound, unauthorized } from "#server/http/errors";
import { actorOf } from "#server/modules/audit/model";
import { REFRESH_COOKIE } from "#server/modules/auth";
import type { AuthService } from "#server/modules/auth/service";
import { WORKSPACE_HEADER, type CurrentWorkspace } from "#server/modules/workspaces/model";
import {
  addTargetBody,
  comparisonDto,
  createComparisonBody,
  diffDto,
  exportQuery,
  findingDto,
  scheduleView,
  snapshotDto,
  targetDto,
  updateComparisonBody,
} from "./model";
import type { ComparisonsService } from "./service";

/** Screenshot and export links also work with the session cookie (see bearerOrCookie). */
const BEARER_OR_COOKIE: Record<string, string[]>[] = [...BEARER_SECURITY, { sessionCookie: [] }];

/**
 * Who acted, for the workspace's audit log. The address is read in the two handlers that record
 * (start, delete) rather than by a plugin: a plugin would read it on every route here, the hot
 * list included.
 */
const actorOfRequest = (user: { id: string; email: string }, request: Request) =>
  actorOf(user, clientIp(request), request.headers.get("user-agent"));

const comparison = responds(comparisonDto);
// GET /comparisons/:id also carries the watch schedule (added where the services are built, app.ts).
const comparisonWithSchedule = responds(comparisonDto.extend({ schedule: scheduleView.nullable() }));
// The list is a cached, shared value: callers must not change it.
const comparisonList = responds(z.array(comparisonDto).readonly());

export type WorkspaceAuth = Pick<AuthService, "principalForAccessToken" | "workspaceFor" | "userForRefreshToken">;

/**
 * Screenshots and exports are fetched by <img> tags and download links, which cannot send a
 * bearer token or the workspace header; they also accept the session cookie (HttpOnly,
 * SameSite=Strict, so other sites cannot use it), in the workspace the user last chose. Ownership
 * is still checked per row, against that workspace.
 */
export async function workspaceOfBearerOrCookie(auth: WorkspaceAuth, request: Request): Promise<CurrentWorkspace> {
  const token = bearerToken(request.headers.get("authorization"));
  const who = token
    ? auth.principalForAccessToken(token)
    : (() => {
        const user = auth.userForRefreshToken(readCookie(request.headers.get("cookie"), REFRESH_COOKIE));
        return user ? { user, keyWorkspaceId: null } : null;
      })();
  if (!who) throw unauthorized();
  const workspace = auth.workspaceFor({ userId: who.user.id, keyWorkspaceId: who.keyWorkspaceId }, request.headers.get(WORKSPACE_HEADER));
  if (!workspace) throw notFound("Workspace not found");
  return workspace;
}

export function comparisonRoutes(comparisons: ComparisonsService, auth: WorkspaceAuth) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(workspaceGuard(auth))
    .get(
      "/comparisons",
      syncHandler(({ workspace, set }: SyncContext) => cachedJson(comparisons.list(workspace.id), set)),
      {
        role: "viewer",
        response: { 200: comparisonList, ...errors(401, 404, 500, 503) },
        detail: { summary: "Your comparisons, newest first" },
      },
    )
    .post(
      "/comparisons",
      ({ workspace, body, set }) => {
        set.status = 201;
        return comparisons.create(workspace.id, body);
      },
      {
        role: "editor",
        body: createComparisonBody,
        response: { 201: comparison, ...errors(400, 401, 403, 404, 413, 500, 503) },
        detail: { summary: "Create a comparison" },
      },
    )
    .get("/comparisons/:id", ({ workspace, params }) => comparisons.get(workspace.id, params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: comparisonWithSchedule, ...errors(401, 404, 500, 503) },
      detail: { summary: "One comparison" },
    })
    .patch("/comparisons/:id", ({ workspace, params, body }) => comparisons.update(workspace.id, params.id, body), {
      role: "editor",
      params: idParams,
      body: updateComparisonBody,
      response: { 200: comparisonWithSchedule, ...errors(400, 401, 403, 404, 413, 500, 503) },
      detail: {
        summary: "Change a comparison's capture settings; the next run uses them",
        description:
          'consent: what captures do about a cookie banner (reject, accept or keep). colorSchemes: ["light"], or ["light", "dark"] to capture every page in both (prefers-color-scheme) as their own variants.',
      },
    })
    .delete(
      "/comparisons/:id",
      async ({ user, workspace, params, request }) => {
        await comparisons.remove(workspace.id, params.id, actorOfRequest(user, request));
        return { ok: true as const };
      },
      {
        role: "editor",
        params: idParams,
        response: { 200: responds(okAnswer), ...errors(401, 403, 404, 409, 500, 503) },
        detail: { summary: "Delete a comparison and its captures" },
      },
    )
    .get(
      "/comparisons/:id/targets",
      syncHandler(({ workspace, params }: SyncContext<{ id: string }>) => comparisons.listTargets(workspace.id, params.id)),
      {
        role: "viewer",
        params: idParams,
        response: { 200: responds(z.array(targetDto)), ...errors(401, 404, 500, 503) },
        detail: { summary: "The pages a comparison captures" },
      },
    )
    .post(
      "/comparisons/:id/targets",
      async ({ workspace, params, body, set }) => {
        const target = await comparisons.addTarget(workspace.id, params.id, body);
        set.status = 201;
        return target;
      },
      {
        role: "editor",
        params: idParams,
        body: addTargetBody,
        response: { 201: responds(targetDto), ...errors(400, 401, 403, 404, 409, 413, 500, 503) },
        detail: { summary: "Add a page to capture" },
      },
    )
    .delete(
      "/targets/:id",
      async ({ workspace, params }) => {
        await comparisons.removeTarget(workspace.id, params.id);
        return { ok: true as const };
      },
      {
        role: "editor",
        params: idParams,
        response: { 200: responds(okAnswer), ...errors(401, 403, 404, 409, 500, 503) },
        detail: { summary: "Remove a page from its comparison" },
      },
    )
    .post(
      "/comparisons/:id/start",
      ({ user, workspace, params, request, set }) => {
        const started = comparisons.start(workspace.id, params.id, "manual", actorOfRequest(user, request));
        set.status = 202;
        return started;
      },
      {
        role: "editor",
        params: idParams,
        response: { 202: comparison, ...errors(400, 401, 403, 404, 409, 429, 500, 503) },
        detail: { summary: "Start capturing and scoring; progress arrives over /ws" },
      },
    )
    .get(
      "/comparisons/:id/snapshots",
      syncHandler(({ workspace, params }: SyncContext<{ id: string }>) => comparisons.snapshots(workspace.id, params.id)),
      {
        role: "viewer",
        params: idParams,
        response: { 200: responds(z.array(snapshotDto)), ...errors(401, 404, 500, 503) },
        detail: { summary: "Captured pages with what was measured on them" },
      },
    )
    .get(
      "/comparisons/:id/diffs",
      syncHandler(({ workspace, params }: SyncContext<{ id: string }>) => comparisons.diffs(workspace.id, params.id)),
      {
        role: "viewer",
        params: idParams,
        response: { 200: responds(z.array(diffDto)), ...errors(401, 404, 500, 503) },
        detail: { summary: "Similarity scores between captured pages" },
      },
    )
    .get(
      "/comparisons/:id/findings",
      syncHandler(({ workspace, params }: SyncContext<{ id: string }>) => comparisons.findings(workspace.id, params.id)),
      {
        role: "viewer",
        params: idParams,
        response: { 200: responds(z.array(findingDto)), ...errors(401, 404, 500, 503) },
        detail: { summary: "What to change, with the evidence behind it" },
      },
    )
    .get(
      "/snapshots/:id/screenshot",
      async ({ request, params }) => {
        const workspace = await workspaceOfBearerOrCookie(auth, request);
        // Streamed from the store behind this ownership check (docs/decisions/0016-images-through-the-app.md).
        const { body } = await comparisons.screenshot(workspace.id, params.id);
        return new Response(body, {
          headers: { "content-type": "image/png", "cache-control": "private, max-age=3600" },
        });
      },
      {
        params: idParams,
        response: errors(401, 404, 500, 503),
        detail: {
          summary: "A snapshot's full-page screenshot",
          security: BEARER_OR_COOKIE,
          ...binaryResponse("image/png", "The screenshot"),
        },
      },
    )
    .get(
      "/comparisons/:id/export",
      async ({ request, params, query }) => {
        const workspace = await workspaceOfBearerOrCookie(auth, request);
        const file = await comparisons.exportReport(workspace.id, params.id, query.format);
        return new Response(file.body, {
          headers: {
            "content-type": file.contentType,
            "content-disposition": `attachment; filename="${file.filename}"`,
            "cache-control": "private, no-store",
            // Should a browser ever render it from here, the report runs nothing and loads nothing.
            "content-security-policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
          },
        });
      },
      {
        params: idParams,
        query: exportQuery,
        response: errors(400, 401, 404, 500, 503),
        detail: {
          summary: "Download the report (JSON or self-contained HTML)",
          security: BEARER_OR_COOKIE,
          ...binaryResponse(["application/json", "text/html"], "The report as an attachment; JSON follows the ComparisonReport shape"),
        },
      },
    );
}
