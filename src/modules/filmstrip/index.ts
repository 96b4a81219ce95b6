import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard, BEARER_SECURITY } from "#server/http/auth-guard";
import { binaryResponse, errors, idParams, responds } from "#server/http/contract";
import type { AuthService } from "#server/modules/auth/service";
import { bearerOrCookie } from "#server/modules/comparisons";
import { filmstripDto, frameParams } from "./model";
import type { FilmstripService } from "./service";

type UserResolvers = Pick<AuthService, "userForAccessToken" | "userForRefreshToken">;

export function filmstripRoutes(filmstrips: FilmstripService, auth: UserResolvers) {
  return new Elysia({ prefix: "/api", tags: ["comparisons"] })
    .use(authGuard(auth.userForAccessToken))
    .get("/comparisons/:id/filmstrips", ({ user, params }) => filmstrips.forComparison(user.id, params.id), {
      auth: "user",
      params: idParams,
      response: { 200: responds(z.array(filmstripDto)), ...errors(401, 404, 500, 503) },
      detail: { summary: "Frames of each latest capture loading, timed from navigation start" },
    })
    .get(
      "/snapshots/:id/filmstrip/:frame",
      async ({ request, params }) => {
        // Fetched by <img> tags, like screenshots: the session cookie also works.
        const user = await bearerOrCookie(auth, request);
        const { body } = await filmstrips.frame(user.id, params.id, params.frame);
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
