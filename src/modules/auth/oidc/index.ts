import { Elysia } from "elysia";
import { clientIpPlugin, isHttps } from "#server/http/client-ip";
import { errors, redirectResponse } from "#server/http/contract";
import { readCookie, serializeCookie } from "#server/http/cookies";
import { notFound } from "#server/http/errors";
import type { Budget } from "#server/http/rate-limit";
import { sessionCookies } from "../index";
import { callbackQuery, OidcRefusal } from "./model";
import type { OidcService } from "./service";
import { OIDC_COOKIE, OIDC_COOKIE_PATH, OIDC_COOKIE_TTL_SECONDS } from "./state-cookie";

/** Where a signed-in browser lands, as after a password sign-in. */
export const AFTER_SIGN_IN = "/dashboard";
const OFF = "Single sign-on is not configured on this server";

/** A redirect that is never cached, with the cookies it sets. */
function redirect(location: string, cookies: string[]): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 302, headers });
}

/**
 * The signed-in answer to the provider's redirect. The refresh cookie is SameSite=Strict, and a
 * navigation that a cross-site redirect chain started does not carry Strict cookies: a 302 to the
 * app would render its first page signed out. This page is same-origin, so the navigation it starts
 * (a meta refresh, which needs no script and so no CSP nonce) carries the new session.
 */
function signedInPage(cookies: string[]): Response {
  const headers = new Headers({
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
  });
  for (const c of cookies) headers.append("set-cookie", c);
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${AFTER_SIGN_IN}"><title>Signed in</title></head><body><p>Signed in. <a href="${AFTER_SIGN_IN}">Continue to the dashboard</a>.</p></body></html>`;
  return new Response(body, { status: 200, headers });
}

/**
 * GET /api/auth/oidc/start and /callback: browser navigations, so every answer sends the browser on (to the
 * provider, to the app through a same-origin page, or back to /login?error=<code>), never a JSON error page. Registered whether
 * or not OIDC_ISSUER is set, so the API document is the same everywhere; off, both answer 404.
 */
export function oidcRoutes(oidc: OidcService | null, opts: { perIp: Budget; log?: (msg: string, err?: unknown) => void }) {
  // The pending sign-in's cookie must come back on the provider's cross-site redirect: SameSite=Lax.
  const pendingCookie = (request: Request, value: string, maxAgeSeconds: number) =>
    serializeCookie(OIDC_COOKIE, value, { maxAgeSeconds, secure: isHttps(request), path: OIDC_COOKIE_PATH, sameSite: "Lax" });

  return new Elysia({ prefix: "/api/auth/oidc", tags: ["auth"] })
    .use(clientIpPlugin())
    .get(
      "/start",
      async ({ request, ip }) => {
        if (!oidc) throw notFound(OFF);
        await opts.perIp.hit(`oidc:${ip}`);
        try {
          const { location, cookie } = await oidc.start(new URL(request.url).origin);
          return redirect(location, [pendingCookie(request, cookie, OIDC_COOKIE_TTL_SECONDS)]);
        } catch (e) {
          opts.log?.("oidc: sign-in could not start", e);
          return redirect("/login?error=unavailable", []);
        }
      },
      {
        response: errors(404, 429, 500, 503),
        detail: {
          summary: "Start single sign-on: redirects to the OpenID provider (sets a 10-minute sign-in cookie)",
          security: [{}],
          ...redirectResponse("To the provider's authorization endpoint, or to /login?error=unavailable"),
        },
      },
    )
    .get(
      "/callback",
      async ({ request, ip }) => {
        if (!oidc) throw notFound(OFF);
        await opts.perIp.hit(`oidc:${ip}`);
        // Whatever the outcome, the pending sign-in is spent: a second use of the same answer finds nothing.
        const spent = pendingCookie(request, "", 0);
        try {
          const session = await oidc.callback(new URL(request.url), readCookie(request.headers.get("cookie"), OIDC_COOKIE), {
            ip,
            userAgent: request.headers.get("user-agent") ?? undefined,
          });
          return signedInPage([spent, ...sessionCookies(request, session)]);
        } catch (e) {
          const refusal = e instanceof OidcRefusal ? e : new OidcRefusal("unavailable", (e as Error)?.message ?? String(e));
          opts.log?.(`oidc: sign-in refused (${refusal.code}): ${refusal.message}`, e instanceof OidcRefusal ? undefined : e);
          return redirect(`/login?error=${refusal.code}`, [spent]);
        }
      },
      {
        query: callbackQuery,
        response: errors(400, 404, 429, 500, 503),
        detail: {
          summary:
            "The provider's answer: signs in (sets the refresh cookie) and answers a page that forwards to the app, or redirects to /login?error=<code>",
          security: [{}],
          ...redirectResponse(
            `Refused: to /login?error=<code> naming why. Signed in, the answer is instead a 200 page that forwards to ${AFTER_SIGN_IN}`,
          ),
        },
      },
    );
}
