import { Elysia } from "elysia";
import { authGuard } from "../../http/auth-guard";
import { parseInput } from "../../http/errors";
import type { AuthService } from "../auth/service";
import { runParams } from "./model";
import type { HistoryService } from "./service";

export function historyRoutes(history: HistoryService, auth: Pick<AuthService, "userForAccessToken">) {
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
    );
}
