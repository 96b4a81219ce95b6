// The changes API: what changed between two runs of a comparison, and one page's pixel heat map.
// Each route declares its params, query and responses (docs/decisions/0004-route-schemas-and-openapi.md).
import { Elysia } from "elysia";
import { workspaceGuard } from "#server/http/workspace-guard";
import { BEARER_SECURITY } from "#server/http/auth-guard";
import { binaryResponse, errors, idParams, responds } from "#server/http/contract";
import { type WorkspaceAuth, workspaceOfBearerOrCookie } from "#server/modules/comparisons";
import { changesQuery, changesResponse, visualQuery } from "./model";
import type { ChangesService } from "./service";

/** The heat map is shown in an <img>, so the session cookie works too (as for screenshots). */
const BEARER_OR_COOKIE: Record<string, string[]>[] = [...BEARER_SECURITY, { sessionCookie: [] }];

export function changesRoutes(changes: ChangesService, auth: WorkspaceAuth) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(workspaceGuard(auth))
    .get("/comparisons/:id/changes", ({ workspace, params, query }) => changes.changes(workspace.id, params.id, query), {
      role: "viewer",
      params: idParams,
      query: changesQuery,
      response: { 200: responds(changesResponse), ...errors(400, 401, 404, 500, 503) },
      detail: { summary: "What changed on each website between two completed runs (default: the last two)" },
    })
    .get(
      "/comparisons/:id/changes/visual",
      async ({ request, params, query }) => {
        const workspace = await workspaceOfBearerOrCookie(auth, request);
        const png = await changes.visual(workspace.id, params.id, query);
        return new Response(png as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": "image/png", "cache-control": "private, max-age=3600" },
        });
      },
      {
        params: idParams,
        query: visualQuery,
        response: errors(400, 401, 404, 500, 503),
        detail: {
          summary: "Pixel heat map of one website between two completed runs",
          security: BEARER_OR_COOKIE,
          ...binaryResponse("image/png", "The later page faded to grey, changed pixels red, changed regions outlined"),
        },
      },
    );
}
