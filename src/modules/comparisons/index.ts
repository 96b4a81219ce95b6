import { Elysia } from "elysia";
import { authGuard, bearerToken } from "../../http/auth-guard";
import { cachedJson } from "../../http/cached-json";
import { readCookie } from "../../http/cookies";
import { parseInput, unauthorized } from "../../http/errors";
import { REFRESH_COOKIE } from "../auth";
import type { PublicUser } from "../auth/model";
import type { AuthService } from "../auth/service";
import { addTargetBody, createComparisonBody, exportQuery } from "./model";
import type { ComparisonsService } from "./service";

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
  return new Elysia({ prefix: "/api" })
    .use(authGuard(auth.userForAccessToken))
    .get("/comparisons", ({ user, set }) => cachedJson(comparisons.list(user.id), set), { auth: "user" })
    .post(
      "/comparisons",
      ({ user, body, set }) => {
        const input = parseInput(createComparisonBody, body);
        set.status = 201;
        return comparisons.create(user.id, input);
      },
      { auth: "user" },
    )
    .get("/comparisons/:id", ({ user, params }) => comparisons.get(user.id, params.id), { auth: "user" })
    .delete(
      "/comparisons/:id",
      async ({ user, params }) => {
        await comparisons.remove(user.id, params.id);
        return { ok: true };
      },
      { auth: "user" },
    )
    .get("/comparisons/:id/targets", ({ user, params }) => comparisons.listTargets(user.id, params.id), { auth: "user" })
    .post(
      "/comparisons/:id/targets",
      async ({ user, params, body, set }) => {
        const input = parseInput(addTargetBody, body);
        const target = await comparisons.addTarget(user.id, params.id, input);
        set.status = 201;
        return target;
      },
      { auth: "user" },
    )
    .delete(
      "/targets/:id",
      async ({ user, params }) => {
        await comparisons.removeTarget(user.id, params.id);
        return { ok: true };
      },
      { auth: "user" },
    )
    .post(
      "/comparisons/:id/start",
      ({ user, params, set }) => {
        const started = comparisons.start(user.id, params.id);
        set.status = 202;
        return started;
      },
      { auth: "user" },
    )
    .get("/comparisons/:id/snapshots", ({ user, params }) => comparisons.snapshots(user.id, params.id), { auth: "user" })
    .get("/comparisons/:id/diffs", ({ user, params }) => comparisons.diffs(user.id, params.id), { auth: "user" })
    .get("/comparisons/:id/findings", ({ user, params }) => comparisons.findings(user.id, params.id), { auth: "user" })
    .get("/snapshots/:id/screenshot", async ({ request, params }) => {
      const user = await bearerOrCookie(auth, request);
      const path = comparisons.screenshotPath(user.id, params.id);
      return new Response(Bun.file(path), {
        headers: { "content-type": "image/png", "cache-control": "private, max-age=3600" },
      });
    })
    .get("/comparisons/:id/export", async ({ request, params, query }) => {
      const user = await bearerOrCookie(auth, request);
      const { format } = parseInput(exportQuery, query);
      const file = await comparisons.exportReport(user.id, params.id, format);
      return new Response(file.body, {
        headers: {
          "content-type": file.contentType,
          "content-disposition": `attachment; filename="${file.filename}"`,
          "cache-control": "private, no-store",
          // Should a browser ever render it from here, the report runs nothing and loads nothing.
          "content-security-policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
        },
      });
    });
}
