import { Elysia } from "elysia";
import { z } from "zod";
import { clientIpPlugin, isHttps } from "#server/http/client-ip";
import { authGuard } from "#server/http/auth-guard";
import { errors, okAnswer, responds } from "#server/http/contract";
import { readCookie, serializeCookie } from "#server/http/cookies";
import { HttpError } from "#server/http/errors";
import type { Budget } from "#server/http/rate-limit";
import { authAnswer, loginBody, publicUser, signupBody } from "./model";
import type { AuthService, Session } from "./service";
import { REFRESH_TOKEN_TTL_SECONDS } from "./tokens";
import { DEVICE_COOKIE, DEVICE_COOKIE_PATH, DEVICE_COOKIE_TTL_SECONDS } from "./device-cookie";

export const REFRESH_COOKIE = "di_refresh";

export interface AuthLimits {
  perIp: Budget;
  perAccount: Budget;
}

export { isHttps } from "#server/http/client-ip";

/** Refresh rides on a cookie, so it must come from our own pages: browsers tell us via Sec-Fetch-Site and Origin. */
function assertSameOrigin(request: Request) {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") throw new HttpError(403, "Cross-site request refused");
  const origin = request.headers.get("origin");
  if (origin) {
    const host = request.headers.get("host") ?? new URL(request.url).host;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw new HttpError(403, "Cross-site request refused");
    }
    if (originHost !== host) throw new HttpError(403, "Cross-site request refused");
  }
}

const deviceCookieHeader = (request: Request, value: string) =>
  serializeCookie(DEVICE_COOKIE, value, { maxAgeSeconds: DEVICE_COOKIE_TTL_SECONDS, secure: isHttps(request), path: DEVICE_COOKIE_PATH });

/** The cookies a new session sets: its refresh cookie, and the device cookie when one was issued. */
export function sessionCookies(request: Request, s: Session): string[] {
  const refresh = serializeCookie(REFRESH_COOKIE, s.refreshToken, { maxAgeSeconds: REFRESH_TOKEN_TTL_SECONDS, secure: isHttps(request) });
  return s.deviceCookie ? [refresh, deviceCookieHeader(request, s.deviceCookie)] : [refresh];
}

export function authRoutes(auth: AuthService, limits: AuthLimits) {
  const withCookie = (set: { headers: Record<string, string | number | string[]> }, request: Request, s: Session) => {
    const cookies = sessionCookies(request, s);
    set.headers["set-cookie"] = cookies.length === 1 ? cookies[0]! : cookies;
    set.headers["cache-control"] = "no-store";
    return s.answer;
  };
  const expiredCookie = (request: Request) => serializeCookie(REFRESH_COOKIE, "", { maxAgeSeconds: 0, secure: isHttps(request) });

  const session = responds(authAnswer);
  /** The refresh cookie a browser holds; only our own pages send it (SameSite=Strict). */
  const cookieSecurity: Record<string, string[]>[] = [{ sessionCookie: [] }];

  return new Elysia({ prefix: "/api/auth", tags: ["auth"] })
    .use(clientIpPlugin())
    .use(authGuard(auth.userForAccessToken))
    .post(
      "/signup",
      async ({ body, ip, request, set }) => {
        await limits.perAccount.hit(`signup:${body.email.toLowerCase()}`);
        const session = await auth.signup(body, { ip, userAgent: request.headers.get("user-agent") ?? undefined });
        set.status = 201;
        return withCookie(set, request, session);
      },
      {
        // Counted before the body is checked: malformed attempts spend the budget too.
        transform: async ({ ip }) => limits.perIp.hit(`signup:${ip}`),
        body: signupBody,
        response: { 201: session, ...errors(400, 403, 409, 413, 429, 500, 503) },
        detail: { summary: "Create an account; sets the refresh cookie" },
      },
    )
    .post(
      "/login",
      async ({ body, ip, request, set }) => {
        // Throttled inside login, per device cookie or per address and account (device-cookie-throttle.ts).
        const device = readCookie(request.headers.get("cookie"), DEVICE_COOKIE);
        const session = await auth.login(body, { ip, userAgent: request.headers.get("user-agent") ?? undefined }, device);
        return withCookie(set, request, session);
      },
      {
        body: loginBody,
        response: { 200: session, ...errors(400, 401, 403, 413, 429, 500, 503) },
        detail: { summary: "Sign in; sets the refresh cookie (and a device cookie that keeps this browser's sign-in limit its own)" },
      },
    )
    .post(
      "/refresh",
      async ({ request, set, status }) => {
        assertSameOrigin(request);
        try {
          const session = await auth.refresh(readCookie(request.headers.get("cookie"), REFRESH_COOKIE));
          return withCookie(set, request, session);
        } catch (e) {
          // A dead session also loses its cookie, so the browser stops presenting it.
          if (e instanceof HttpError && e.status === 401) {
            set.headers["set-cookie"] = expiredCookie(request);
            set.headers["cache-control"] = "no-store";
            return status(401, { error: e.message });
          }
          throw e;
        }
      },
      {
        response: { 200: session, ...errors(401, 403, 409, 500, 503) },
        detail: { summary: "A new access token for the session cookie (rotates the cookie)", security: cookieSecurity },
      },
    )
    .post(
      "/logout",
      async ({ request, set }) => {
        await auth.logout(readCookie(request.headers.get("cookie"), REFRESH_COOKIE));
        set.headers["set-cookie"] = expiredCookie(request);
        return { ok: true as const };
      },
      {
        response: { 200: responds(okAnswer), ...errors(500, 503) },
        // Without a cookie there is nothing to end, and the answer is the same: the cookie is optional.
        detail: { summary: "End the session and clear its cookie", security: [...cookieSecurity, {}] },
      },
    )
    .get("/me", ({ user }) => ({ user }), {
      auth: "user",
      response: { 200: responds(z.object({ user: publicUser })), ...errors(401, 500, 503) },
      detail: { summary: "The signed-in user" },
    });
}
