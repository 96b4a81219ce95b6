import { Elysia } from "elysia";
import { responds } from "#server/http/contract";
import { liveResponse, notReadyResponse, readyResponse } from "./model";
import type { HealthService } from "./service";

export { healthService, type HealthService } from "./service";

/**
 * Unauthenticated on purpose (orchestrators and load balancers call them); they reveal nothing a
 * user could not already see: the process is up, and which of its own checks fail.
 */
export function healthRoutes(health: HealthService) {
  return new Elysia({ prefix: "/api/health" })
    .get(
      "/live",
      ({ set }) => {
        set.headers["cache-control"] = "no-store";
        return health.live();
      },
      { response: { 200: responds(liveResponse) }, detail: { tags: ["health"], summary: "The process is up (liveness)" } },
    )
    .get(
      "/ready",
      async ({ set, status }) => {
        set.headers["cache-control"] = "no-store";
        const report = await health.readyNow();
        if (report.ok) return report;
        const { ok: _failed, ...answer } = report;
        return status(503, answer);
      },
      {
        response: { 200: responds(readyResponse), 503: responds(notReadyResponse) },
        detail: { tags: ["health"], summary: "Ready to serve: database writable, migrations applied, storage free, capture browser up" },
      },
    );
}
