import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard, BEARER_SECURITY, bearerToken, type BearerResolver } from "#server/http/auth-guard";
import { clientIpPlugin } from "#server/http/client-ip";
import { errors, idParams, responds } from "#server/http/contract";
import { RateLimiter } from "#server/http/rate-limit";
import {
  agentDto,
  analyticsDto,
  analyticsQuery,
  componentDto,
  componentsQuery,
  experimentDto,
  ingestBody,
  metricsDto,
  testsQuery,
  trendDto,
  trendSettings,
  trendsQuery,
} from "./model";
import type { AgentsService } from "./service";

const experiment = responds(experimentDto);
const readErrors = errors(400, 401, 500, 503);

export function agentsRoutes(agents: AgentsService, resolveUser: BearerResolver, opts: { now?: () => number } = {}) {
  // Real sites post events in bursts; the budget is per address and generous, but bounded.
  const ingestLimit = new RateLimiter(600, 60_000, opts.now);
  return new Elysia({ prefix: "/api", tags: ["agents"] })
    .use(clientIpPlugin())
    .use(authGuard(resolveUser))
    .get("/agents", () => agents.agents(), {
      auth: "user",
      response: { 200: responds(z.array(agentDto)), ...errors(401, 500, 503) },
      detail: { summary: "The four agents and what they are doing" },
    })
    .get("/metrics", ({ user }) => agents.metrics(user), {
      auth: "user",
      response: { 200: responds(metricsDto), ...errors(401, 500, 503) },
      detail: { summary: "Mission Control's headline numbers" },
    })
    .get("/trends", ({ user, query }) => agents.trends(user, query.limit), {
      auth: "user",
      query: trendsQuery,
      response: { 200: responds(z.array(trendDto)), ...readErrors },
      detail: { summary: "Design trends mined from captured sites" },
    })
    .get("/trends/settings", () => agents.trendSettings(), {
      auth: "user",
      response: { 200: responds(trendSettings), ...errors(401, 500, 503) },
      detail: { summary: "How the trend agent mines" },
    })
    .put("/trends/settings", ({ body }) => agents.saveTrendSettings(body), {
      auth: "admin",
      body: trendSettings,
      response: { 200: responds(trendSettings), ...errors(400, 401, 403, 413, 500, 503) },
      detail: { summary: "Change how the trend agent mines (admins)" },
    })
    .get("/components", ({ user, query }) => agents.components(user, query.limit), {
      auth: "user",
      query: componentsQuery,
      response: { 200: responds(z.array(componentDto)), ...readErrors },
      detail: { summary: "Generated components, newest first" },
    })
    .get("/components/:id", ({ user, params }) => agents.component(user, params.id), {
      auth: "user",
      params: idParams,
      response: { 200: responds(componentDto), ...errors(401, 404, 500, 503) },
      detail: { summary: "One generated component" },
    })
    .get("/tests", ({ user, query }) => agents.tests(user, query.status, query.limit), {
      auth: "user",
      query: testsQuery,
      response: { 200: responds(z.array(experimentDto)), ...readErrors },
      detail: { summary: "A/B tests, newest first" },
    })
    .get("/tests/:id", ({ user, params }) => agents.test(user, params.id), {
      auth: "user",
      params: idParams,
      response: { 200: experiment, ...errors(401, 404, 500, 503) },
      detail: { summary: "One A/B test with its statistics" },
    })
    .post(
      "/tests/:id/events",
      async ({ params, body, headers }) => {
        const token = bearerToken(headers.authorization);
        const viewer = token ? await resolveUser(token) : null;
        return agents.ingest(params.id, { viewer, ingestKey: headers["x-ingest-key"] ?? null }, body);
      },
      {
        // Counted before the body is checked: malformed posts spend the budget too.
        transform: ({ ip }) => ingestLimit.hit(`ingest:${ip}`),
        params: idParams,
        body: ingestBody,
        response: { 200: experiment, ...errors(400, 401, 403, 404, 409, 413, 429, 500, 503) },
        detail: {
          summary: "Record impressions or conversions from a real site",
          description: "Send the test's ingest key in X-Ingest-Key (a site's backend), or sign in as its owner or an admin.",
          security: [{ ingestKey: [] }, ...BEARER_SECURITY],
        },
      },
    )
    .get("/analytics", ({ user, query }) => agents.analytics(user, query.range), {
      auth: "user",
      query: analyticsQuery,
      response: { 200: responds(analyticsDto), ...readErrors },
      detail: { summary: "Traffic, prediction accuracy and similarity over time" },
    });
}
