import { Elysia } from "elysia";
import { workspaceGuard } from "#server/http/workspace-guard";
import { z } from "zod";
import { BEARER_SECURITY } from "#server/http/auth-guard";
import { binaryResponse, errors, idParams, responds } from "#server/http/contract";
import { type WorkspaceAuth, workspaceOfBearerOrCookie } from "#server/modules/comparisons";
import { filmstripDto, frameParams } from "./model";
import type { FilmstripService } from "./service";

export function filmstripRoutes(filmstrips: FilmstripService, auth: WorkspaceAuth) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(workspaceGuard(auth))
    .get("/comparisons/:id/filmstrips", ({ workspace, params }) => filmstrips.forComparison(workspace.id, params.id), {
      role: "viewer",
      params: idParams,
      response: { 200: responds(z.array(filmstripDto)), ...errors(401, 404, 500, 503) },
      detail: { summary: "Frames of each latest capture loading, timed from navigation start" },
    })
    .get(
      "/snapshots/:id/filmstrip/:frame",
      async ({ request, params }) => {
        // Fetched by <img> tags, like screenshots: the session cookie also works.
        const workspace = await workspaceOfBearerOrCookie(auth, request);
        const { body } = await filmstrips.frame(workspace.id, params.id, params.frame);
        return new Response(body, { headers: { "content-type": "image/jpeg", "cache-control": "private, max-age=3600" } });
      },
      {
        params: frameParams,
        response: errors(400, 401, 404, 500, 503),
        detail: {
          summary: "One filmstrip frame of a snapshot",
          security: [...BEARER_SECURITY, { sessionCookie: [] }],
          ...binaryResponse("image/jpeg", "The frame"),
        },
      },
    );
}
