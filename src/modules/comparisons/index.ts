import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard, BEARER_SECURITY, bearerToken } from "#server/http/auth-guard";
import { cachedJson } from "#server/http/cached-json";
import { syncHandler, type SyncContext } from "#server/http/sync-handler";
import { binaryResponse, errors, idParams, okAnswer, responds } from "#server/http/contract";
import { readCookie } from "#server/http/cookies";
import { unauthorized } from "#server/http/errors";
import { REFRESH_COOKIE } from "#server/modules/auth";
import type { PublicUser } from "#server/modules/auth/model";
import type { AuthService } from "#server/modules/auth/service";
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

const comparison = responds(comparisonDto);
// GET /comparisons/:id also carries the watch schedule (added where the services are built, app.ts).
const comparisonWithSchedule = responds(comparisonDto.extend({ schedule: scheduleView.nullable() }));
// The list is a cached, shared value: callers must not change it.
const comparisonList = responds(z.array(comparisonDto).readonly());

type UserResolvers = Pick<AuthService, "userForAccessToken" | "userForRefreshToken">;

/**
 * Screenshots and exports are fetched by <img> tags and download links, which cannot send a
 * bearer token; they also accept the session cookie (HttpOnly, SameSite=Strict, so other sites
 * cannot use it). Ownership is still checked per row.
 */
export async function bearerOrCookie(auth: UserResolvers, request: Request): Promise<PublicUser> {
  const token = bearerToken(request.headers.get("authorization"));
  const user = token
    ? await auth.userForAccessToken(token)
    : auth.userForRefreshToken(readCookie(request.headers.get("cookie"), REFRESH_COOKIE));
  if (!user) throw unauthorized();
  return user;
}

export function comparisonRoutes(comparisons: ComparisonsService, auth: UserResolvers) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(authGuard(auth.userForAccessToken))
    .get(
      "/comparisons",
      syncHandler(({ user, set }: SyncContext) => cachedJson(comparisons.list(user.id), set)),
      {
        auth: "user",
        response: { 200: comparisonList, ...errors(401, 500, 503) },
        detail: { summary: "Your comparisons, newest first" },
      },
    )
    .post(
      "/comparisons",
      ({ user, body, set }) => {
        set.status = 201;
        return comparisons.create(user.id, body);
      },
      {
        auth: "user",
        body: createComparisonBody,
        response: { 201: comparison, ...errors(400, 401, 413, 500, 503) },
        detail: { summary: "Create a comparison" },
      },
    )
    .get(
      "/comparisons/:id",
      syncHandler(({ user, params }: SyncContext<{ id: string }>) => comparisons.get(user.id, params.id)),
      {
        auth: "user",
        params: idParams,
        response: { 200: comparisonWithSchedule, ...errors(401, 404, 500, 503) },
        detail: { summary: "One comparison" },
      },
    )
    .patch("/comparisons/:id", ({ user, params, body }) => comparisons.update(user.id, params.id, body), {
      auth: "user",
      params: idParams,
      body: updateComparisonBody,
      response: { 200: comparisonWithSchedule, ...errors(400, 401, 404, 413, 500, 503) },
      detail: {
        summary: "Change a comparison's capture settings; the next run uses them",
        description:
          'consent: what captures do about a cookie banner (reject, accept or keep). colorSchemes: ["light"], or ["light", "dark"] to capture every page in both (prefers-color-scheme) as their own variants.',
      },
    })
    .delete(
      "/comparisons/:id",
      async ({ user, params }) => {
        await comparisons.remove(user.id, params.id);
        return { ok: true as const };
      },
      {
        auth: "user",
        params: idParams,
        response: { 200: responds(okAnswer), ...errors(401, 404, 409, 500, 503) },
        detail: { summary: "Delete a comparison and its captures" },
      },
    )
    .get(
      "/comparisons/:id/targets",
      syncHandler(({ user, params }: SyncContext<{ id: string }>) => comparisons.listTargets(user.id, params.id)),
      {
        auth: "user",
        params: idParams,
        response: { 200: responds(z.array(targetDto)), ...errors(401, 404, 500, 503) },
        detail: { summary: "The pages a comparison captures" },
      },
    )
    .post(
      "/comparisons/:id/targets",
      async ({ user, params, body, set }) => {
        const target = await comparisons.addTarget(user.id, params.id, body);
        set.status = 201;
        return target;
      },
      {
        auth: "user",
        params: idParams,
        body: addTargetBody,
        response: { 201: responds(targetDto), ...errors(400, 401, 404, 409, 413, 500, 503) },
        detail: { summary: "Add a page to capture" },
      },
    )
    .delete(
      "/targets/:id",
      async ({ user, params }) => {
        await comparisons.removeTarget(user.id, params.id);
        return { ok: true as const };
      },
      {
        auth: "user",
        params: idParams,
        response: { 200: responds(okAnswer), ...errors(401, 404, 409, 500, 503) },
        detail: { summary: "Remove a page from its comparison" },
      },
    )
    .post(
      "/comparisons/:id/start",
      ({ user, params, set }) => {
        const started = comparisons.start(user.id, params.id);
        set.status = 202;
        return started;
      },
      {
        auth: "user",
        params: idParams,
        response: { 202: comparison, ...errors(400, 401, 404, 409, 429, 500, 503) },
        detail: { summary: "Start capturing and scoring; progress arrives over /ws" },
      },
    )
    .get(
      "/comparisons/:id/snapshots",
      syncHandler(({ user, params }: SyncContext<{ id: string }>) => comparisons.snapshots(user.id, params.id)),
      {
        auth: "user",
        params: idParams,
        response: { 200: responds(z.array(snapshotDto)), ...errors(401, 404, 500, 503) },
        detail: { summary: "Captured pages with what was measured on them" },
      },
    )
    .get(
      "/comparisons/:id/diffs",
      syncHandler(({ user, params }: SyncContext<{ id: string }>) => comparisons.diffs(user.id, params.id)),
      {
        auth: "user",
        params: idParams,
        response: { 200: responds(z.array(diffDto)), ...errors(401, 404, 500, 503) },
        detail: { summary: "Similarity scores between captured pages" },
      },
    )
    .get(
      "/comparisons/:id/findings",
      syncHandler(({ user, params }: SyncContext<{ id: string }>) => comparisons.findings(user.id, params.id)),
      {
        auth: "user",
        params: idParams,
        response: { 200: responds(z.array(findingDto)), ...errors(401, 404, 500, 503) },
        detail: { summary: "What to change, with the evidence behind it" },
      },
    )
    .get(
      "/snapshots/:id/screenshot",
      async ({ request, params }) => {
        const user = await bearerOrCookie(auth, request);
        // Streamed from the store behind this ownership check (docs/decisions/0016-images-through-the-app.md).
        const { body } = await comparisons.screenshot(user.id, params.id);
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
        const user = await bearerOrCookie(auth, request);
        const file = await comparisons.exportReport(user.id, params.id, query.format);
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
