import { Elysia } from "elysia";
import { clientIpPlugin, isHttps } from "../../http/client-ip";
import { authGuard } from "../../http/auth-guard";
import { readCookie, serializeCookie } from "../../http/cookies";
import { HttpError, jsonError, parseInput } from "../../http/errors";
import type { RateLimiter } from "../../http/rate-limit";
import { loginBody, signupBody } from "./model";
import type { AuthService, Session } from "./service";
import { REFRESH_TOKEN_TTL_SECONDS } from "./tokens";
import { DEVICE_COOKIE, DEVICE_COOKIE_PATH, DEVICE_COOKIE_TTL_SECONDS } from "./device-cookie";

export const REFRESH_COOKIE = "di_refresh";

export interface AuthLimits {
  perIp: RateLimiter;
  perAccount: RateLimiter;
}

export { isHttps } from "../../http/client-ip";

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

export function authRoutes(auth: AuthService, limits: AuthLimits) {
  const withCookie = (set: { headers: Record<string, string | number | string[]> }, request: Request, s: Session) => {
    const refresh = serializeCookie(REFRESH_COOKIE, s.refreshToken, { maxAgeSeconds: REFRESH_TOKEN_TTL_SECONDS, secure: isHttps(request) });
    set.headers["set-cookie"] = s.deviceCookie ? [refresh, deviceCookieHeader(request, s.deviceCookie)] : refresh;
    set.headers["cache-control"] = "no-store";
    return s.answer;
  };
  const expiredCookie = (request: Request) =>
    serializeCookie(REFRESH_COOKIE, "", { maxAgeSeconds: 0, secure: isHttps(request) });

  return new Elysia({ prefix: "/api/auth" })
    .use(clientIpPlugin)
    .use(authGuard(auth.userForAccessToken))
    .post("/signup", async ({ body, ip, request, set }) => {
      limits.perIp.hit(`signup:${ip}`);
      const input = parseInput(signupBody, body);
      limits.perAccount.hit(`signup:${input.email.toLowerCase()}`);
      const session = await auth.signup(input, { ip, userAgent: request.headers.get("user-agent") ?? undefined });
      set.status = 201;
      return withCookie(set, request, session);
    })
    .post("/login", async ({ body, ip, request, set }) => {
      // Throttled inside login, per device cookie or per address and account (device-cookie-throttle.ts).
      const input = parseInput(loginBody, body);
      const device = readCookie(request.headers.get("cookie"), DEVICE_COOKIE);
      const session = await auth.login(input, { ip, userAgent: request.headers.get("user-agent") ?? undefined }, device);
      return withCookie(set, request, session);
    })
    .post("/refresh", async ({ request, set }) => {
      assertSameOrigin(request);
      try {
        const session = await auth.refresh(readCookie(request.headers.get("cookie"), REFRESH_COOKIE));
        return withCookie(set, request, session);
      } catch (e) {
        // A dead session also loses its cookie, so the browser stops presenting it.
        if (e instanceof HttpError && e.status === 401)
          return jsonError(401, e.message, {}, { "set-cookie": expiredCookie(request), "cache-control": "no-store" });
        throw e;
      }
    })
    .post("/logout", ({ request, set }) => {
      auth.logout(readCookie(request.headers.get("cookie"), REFRESH_COOKIE));
      set.headers["set-cookie"] = expiredCookie(request);
      return { ok: true };
    })
    .get("/me", ({ user }) => ({ user }), { auth: "user" });
}
