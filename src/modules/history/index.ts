import { Elysia } from "elysia";
import { authGuard } from "../../http/auth-guard";
import { parseInput } from "../../http/errors";
import type { AuthService } from "../auth/service";
import { bearerOrCookie } from "../comparisons";
import { changesQuery, visualQuery } from "../watch/changes/model";
import { runParams } from "./model";
import type { HistoryService } from "./service";

export function historyRoutes(history: HistoryService, auth: Pick<AuthService, "userForAccessToken" | "userForRefreshToken">) {
  return new Elysia({ prefix: "/api" })
    .use(authGuard(auth.userForAccessToken))
    .get("/comparisons/:id/runs", ({ user, params }) => history.listRuns(user.id, params.id), { auth: "user" })
    .get(
      "/comparisons/:id/runs/:runId",
      ({ user, params }) => {
        const p = parseInput(runParams, params);
        return history.getRun(user.id, p.id, p.runId);
      },
      { auth: "user" },
    )
    .get("/comparisons/:id/changes", ({ user, params, query }) => history.changes(user.id, params.id, parseInput(changesQuery, query)), {
      auth: "user",
    })
    .get(
      "/comparisons/:id/changes/visual",
      // An <img> shows it, so the session cookie works too (as for screenshots); ownership is checked per row.
      async ({ request, params, query }) => {
        const user = await bearerOrCookie(auth, request);
        const png = await history.visual(user.id, params.id, parseInput(visualQuery, query));
        return new Response(png as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png", "cache-control": "private, max-age=3600" } });
      },
    );
}
