import { Elysia } from "elysia";
import { authGuard, bearerToken, type BearerResolver } from "../../http/auth-guard";
import { clientIpPlugin } from "../../http/client-ip";
import { parseInput } from "../../http/errors";
import { RateLimiter } from "../../http/rate-limit";
import { analyticsQuery, componentsQuery, ingestBody, testsQuery, trendSettings, trendsQuery } from "./model";
import type { AgentsService } from "./service";

export function agentsRoutes(agents: AgentsService, resolveUser: BearerResolver, opts: { now?: () => number } = {}) {
  // Real sites post events in bursts; the budget is per address and generous, but bounded.
  const ingestLimit = new RateLimiter(600, 60_000, opts.now);
  return new Elysia({ prefix: "/api" })
    .use(clientIpPlugin)
    .use(authGuard(resolveUser))
    .get("/agents", () => agents.agents(), { auth: "user" })
    .get("/metrics", ({ user }) => agents.metrics(user), { auth: "user" })
    .get("/trends", ({ user, query }) => agents.trends(user, parseInput(trendsQuery, query).limit), { auth: "user" })
    .get("/trends/settings", () => agents.trendSettings(), { auth: "user" })
    .put("/trends/settings", ({ body }) => agents.saveTrendSettings(parseInput(trendSettings, body)), { auth: "admin" })
    .get("/components", ({ user, query }) => agents.components(user, parseInput(componentsQuery, query).limit), { auth: "user" })
    .get("/components/:id", ({ user, params }) => agents.component(user, params.id), { auth: "user" })
    .get(
      "/tests",
      ({ user, query }) => {
        const q = parseInput(testsQuery, query);
        return agents.tests(user, q.status, q.limit);
      },
      { auth: "user" },
    )
    .get("/tests/:id", ({ user, params }) => agents.test(user, params.id), { auth: "user" })
    .post("/tests/:id/events", async ({ params, body, headers, ip }) => {
      ingestLimit.hit(`ingest:${ip}`);
      const input = parseInput(ingestBody, body);
      const token = bearerToken(headers.authorization);
      const viewer = token ? await resolveUser(token) : null;
      return agents.ingest(params.id, { viewer, ingestKey: headers["x-ingest-key"] ?? null }, input);
    })
    .get("/analytics", ({ user, query }) => agents.analytics(user, parseInput(analyticsQuery, query).range), { auth: "user" });
}
