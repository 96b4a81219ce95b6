// What a worker or a scheduler answers on its PORT: /api/health/live and /api/health/ready, for the
// orchestrator and the load balancer; any other path is a 404 `{ error }` (they serve nothing else).
import { Elysia } from "elysia";
import type { HealthService } from "#server/modules/health";
import { healthRoutes } from "#server/modules/health";
import type { BootContext } from "./context";

export interface HealthServer {
  port: number;
  stop(): Promise<void>;
}

export function serveHealthOnly(ctx: BootContext, health: HealthService): HealthServer {
  const routes = new Elysia().use(healthRoutes(health));
  const server = Bun.serve({
    port: ctx.env.PORT,
    hostname: ctx.env.HOST,
    fetch(req) {
      const { pathname } = new URL(req.url);
      if (req.method === "GET" && (pathname === "/api/health/live" || pathname === "/api/health/ready")) return routes.handle(req);
      return Response.json(
        { error: `This is a ${ctx.role}: it answers only GET /api/health/live and /api/health/ready` },
        { status: 404, headers: { "cache-control": "no-store" } },
      );
    },
    error(err) {
      ctx.logger.error({ err }, "health server error");
      return Response.json({ error: "Something went wrong on our side" }, { status: 500 });
    },
  });
  ctx.logger.info(
    { port: server.port, role: ctx.role },
    `Design Intel ${ctx.role}: health on http://localhost:${server.port}/api/health/ready`,
  );
  return { port: server.port!, stop: () => server.stop(true) };
}
