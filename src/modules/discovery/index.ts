import { Elysia } from "elysia";
import { type WorkspaceResolvers, workspaceGuard } from "#server/http/workspace-guard";
import { errors, idParams, responds } from "#server/http/contract";
import { discoveryDto } from "./model";
import type { DiscoveryService } from "./service";

export function discoveryRoutes(discovery: DiscoveryService, auth: WorkspaceResolvers) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(workspaceGuard(auth))
    .post("/targets/:id/discover", ({ workspace, params, request }) => discovery.discover(workspace.id, params.id, request.signal), {
      role: "editor",
      params: idParams,
      response: { 200: responds(discoveryDto), ...errors(400, 401, 403, 404, 429, 500, 502, 503, 504) },
      detail: {
        summary: "Propose pages of a target's site",
        description:
          "Reads the site's robots.txt (respected: a disallowed path is never fetched nor proposed, only listed in `disallowed`), its sitemaps (robots.txt `Sitemap:` lines and /sitemap.xml; indexes and gzip too) and its home page's navigation links, then proposes up to 20 pages of the same origin, home first, each with a suggested role. Every request goes through the SSRF guard. 502/504: the site could not be reached (the error says why); 400: its address is private; 429: more than 20 discoveries a minute, or 2 at once.",
      },
    });
}
