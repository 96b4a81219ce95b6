import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard, BEARER_SECURITY, bearerToken, type BearerResolver } from "#server/http/auth-guard";
import { workspaceGuard, type WorkspaceResolvers } from "#server/http/workspace-guard";
import { roleAtLeast, WORKSPACE_HEADER } from "#server/modules/workspaces/model";
import { clientIpPlugin } from "#server/http/client-ip";
import { errors, idParams, responds } from "#server/http/contract";
import { notFound } from "#server/http/errors";
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
import type { Viewer } from "./model";

const experiment = responds(experimentDto);
const readErrors = errors(400, 401, 404, 500, 503);

/** What the agents' routes need of the auth service: the bearer's user, their workspace, and who a bearer is. */
export type AgentsAuth = WorkspaceResolvers & { userForAccessToken: BearerResolver };

/** Agent output is the current workspace's (and the shared rows); site admins oversee all of it. */
const viewerOf = (user: { role: Viewer["role"] }, workspace: { id: string }): Viewer => ({ id: workspace.id, role: user.role });

/**
 * Mission Control: every signed-in member reads the current workspace's agent output; the trend
 * agent's settings are the installation's, changed by site admins.
 */
export function agentsRoutes(agents: AgentsService, auth: AgentsAuth, opts: { now?: () => number } = {}) {
  // Real sites post events in bursts; the budget is per address and generous, but bounded.
  const ingestLimit = new RateLimiter(600, 60_000, opts.now);
  return new Elysia({ prefix: "/api", tags: ["agents"] })
    .use(clientIpPlugin())
    .use(authGuard(auth.userForAccessToken))
    .use(workspaceGuard(auth))
    .get("/agents", () => agents.agents(), {
      role: "viewer",
      response: { 200: responds(z.array(agentDto)), ...errors(401, 500, 503) },
      detail: { summary: "The four agents and what they are doing" },
    })
    .get("/metrics", ({ user, workspace }) => agents.metrics(viewerOf(user, workspace)), {
      role: "viewer",
      response: { 200: responds(metricsDto), ...errors(401, 500, 503) },
      detail: { summary: "Mission Control's headline numbers" },
    })
    .get("/trends", ({ user, workspace, query }) => agents.trends(viewerOf(user, workspace), query.limit), {
      role: "viewer",
      query: trendsQuery,
      response: { 200: responds(z.array(trendDto)), ...readErrors },
      detail: { summary: "Design trends mined from captured sites" },
    })
    .get("/trends/settings", () => agents.trendSettings(), {
      role: "viewer",
      response: { 200: responds(trendSettings), ...errors(401, 500, 503) },
      detail: { summary: "How the trend agent mines" },
    })
    .put("/trends/settings", ({ body }) => agents.saveTrendSettings(body), {
      auth: "admin",
      body: trendSettings,
      response: { 200: responds(trendSettings), ...errors(400, 401, 403, 413, 500, 503) },
      detail: { summary: "Change how the trend agent mines (admins)" },
    })
    .get("/components", ({ user, workspace, query }) => agents.components(viewerOf(user, workspace), query.limit), {
      role: "viewer",
      query: componentsQuery,
      response: { 200: responds(z.array(componentDto)), ...readErrors },
      detail: { summary: "Generated components, newest first" },
    })
    .get("/components/:id", ({ user, workspace, params }) => agents.component(viewerOf(user, workspace), params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: responds(componentDto), ...errors(401, 404, 500, 503) },
      detail: { summary: "One generated component" },
    })
    .get("/tests", ({ user, workspace, query }) => agents.tests(viewerOf(user, workspace), query.status, query.limit), {
      role: "viewer",
      query: testsQuery,
      response: { 200: responds(z.array(experimentDto)), ...readErrors },
      detail: { summary: "A/B tests, newest first" },
    })
    .get("/tests/:id", ({ user, workspace, params }) => agents.test(viewerOf(user, workspace), params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: experiment, ...errors(401, 404, 500, 503) },
      detail: { summary: "One A/B test with its statistics" },
    })
    .post(
      "/tests/:id/events",
      async ({ params, body, headers }) => {
        // Optional sign-in (a site's backend sends the ingest key instead): the test must be the
        // current workspace's, and sending its events takes an editor, like any other change to it.
        const token = bearerToken(headers.authorization);
        const who = token ? await auth.principalForAccessToken(token) : null;
        const workspace = who
          ? await auth.workspaceFor({ userId: who.user.id, keyWorkspaceId: who.keyWorkspaceId }, headers[WORKSPACE_HEADER] ?? null)
          : null;
        // Signed in, naming a workspace that is not theirs: not found, as on every other route.
        if (who && !workspace && !headers["x-ingest-key"]) throw notFound("Workspace not found");
        const viewer = who && workspace ? viewerOf(who.user, workspace) : null;
        const editor = !!workspace && roleAtLeast(workspace.role, "editor");
        return agents.ingest(params.id, { viewer, editor, ingestKey: headers["x-ingest-key"] ?? null }, body);
      },
      {
        // Counted before the body is checked: malformed posts spend the budget too.
        transform: ({ ip }) => ingestLimit.hit(`ingest:${ip}`),
        params: idParams,
        body: ingestBody,
        response: { 200: experiment, ...errors(400, 401, 403, 404, 409, 413, 429, 500, 503) },
        detail: {
          summary: "Record impressions or conversions from a real site",
          description:
            "Send the test's ingest key in X-Ingest-Key (a site's backend), or sign in as an editor of its workspace (or a site admin).",
          security: [{ ingestKey: [] }, ...BEARER_SECURITY],
        },
      },
    )
    .get("/analytics", ({ user, workspace, query }) => agents.analytics(viewerOf(user, workspace), query.range), {
      role: "viewer",
      query: analyticsQuery,
      response: { 200: responds(analyticsDto), ...readErrors },
      detail: { summary: "Traffic, prediction accuracy and similarity over time" },
    });
}
