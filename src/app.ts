import { Elysia } from "elysia";
import type { Db } from "./db/connection";
import type { Env } from "./env";
import { httpBase } from "./http/base";
import { readCookie } from "./http/cookies";
import { notFound } from "./http/errors";
import { RateLimiter } from "./http/rate-limit";
import { RequestMetrics } from "./http/request-metrics";
import { REFRESH_COOKIE, authRoutes } from "./modules/auth";
import { authService } from "./modules/auth/service";
import { accessTokens } from "./modules/auth/tokens";
import { waitlistRoutes } from "./modules/waitlist";
import { waitlistService } from "./modules/waitlist/service";
import { serveAsset } from "./ssr/assets";
import { renderPage } from "./ssr/render";

const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#6e56cf"/><path d="M9 22V10h5.5a6 6 0 0 1 0 12z" fill="#fff"/><circle cx="23" cy="11" r="2.5" fill="#fff"/></svg>';

export interface AppDeps {
  db: Db;
  env: Env;
  secret: Uint8Array;
  now?: () => number;
  /** Per-IP and per-account budgets; tests tighten them. */
  limits?: { perIpPerMinute: number; perAccountPerMinute: number };
  log?: (msg: string, err?: unknown) => void;
}

export function createServices(deps: AppDeps) {
  const tokens = accessTokens(deps.secret, deps.now);
  const auth = authService({ db: deps.db, tokens, adminEmails: deps.env.ADMIN_EMAILS, now: deps.now });
  const waitlist = waitlistService(deps.db);
  const metrics = new RequestMetrics(undefined, deps.now);
  return { tokens, auth, waitlist, metrics };
}
export type Services = ReturnType<typeof createServices>;

export function createApp(deps: AppDeps, services: Services = createServices(deps)) {
  const lim = deps.limits ?? { perIpPerMinute: 30, perAccountPerMinute: 10 };
  const limits = {
    perIp: new RateLimiter(lim.perIpPerMinute, 60_000, deps.now),
    perAccount: new RateLimiter(lim.perAccountPerMinute, 60_000, deps.now),
  };
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err));

  // Server-side loaders call the API in-process through the finished app.
  let handle: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const app = new Elysia()
    .use(httpBase({ metrics: services.metrics, log }))
    .get("/api/health", () => ({ ok: true }))
    .use(authRoutes(services.auth, limits))
    .use(waitlistRoutes(services.waitlist, limits))
    .get("/favicon.svg", () => new Response(FAVICON, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } }))
    .get("/favicon.ico", () => new Response(FAVICON, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } }))
    .get("/assets/:name", async ({ params, request }) => {
      const res = await serveAsset(params.name, request.headers.get("accept-encoding"));
      if (!res) throw notFound("No such asset");
      return res;
    })
    .get("/*", async ({ request, path }) => {
      if (path.startsWith("/api/")) throw notFound(`No route for GET ${path}`);
      const user = services.auth.userForRefreshToken(readCookie(request.headers.get("cookie"), REFRESH_COOKIE));
      const origin = new URL(request.url).origin;
      return renderPage(request, {
        user,
        maintenance: false,
        async fetchApi(apiPath) {
          const token = user ? await services.auth.accessTokenFor(user.id) : null;
          return handle(new Request(origin + apiPath, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
        },
      });
    });
  handle = (request) => app.handle(request);
  return app;
}

export type App = ReturnType<typeof createApp>;
