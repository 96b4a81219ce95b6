// The public server of a process that serves (the single process, `serve`): the app (API, pages,
// assets) and its sockets on PORT. Every line it writes is a JSON log line (src/lib/logger.ts).
import { type AppDeps, createApp, type Services } from "#server/app";
import { TRANSPORT_BODY_LIMIT } from "#server/http/base";
import { servePeerAddressesFrom } from "#server/http/client-ip";
import { liveSockets } from "#server/live/ws";
import { MAINTENANCE_MESSAGE } from "#server/modules/admin/model";
import { REFRESH_COOKIE } from "#server/modules/auth";
import { webFrontEnd } from "#server/ssr";
import type { BootContext } from "./context";

const MAINTENANCE_RELOAD_MS = 3_000;

export interface PublicServer {
  /** Closes every socket (clients reconnect) and stops taking requests, letting those in flight finish. */
  stop(): Promise<void>;
}

export async function servePublic(ctx: BootContext, deps: AppDeps, services: Services): Promise<PublicServer> {
  const { env, logger } = ctx;
  const app = createApp(deps, services, webFrontEnd);
  // The maintenance flag is mirrored in memory: read it before the first request asks.
  await services.admin.maintenance.loaded;

  const live = liveSockets({
    hub: services.live,
    userForAccessToken: services.auth.userForAccessToken,
    principalForAccessToken: services.auth.principalForAccessToken,
    userForRefreshToken: services.auth.userForRefreshToken,
    sessionOf: services.auth.sessionOf,
    refreshCookie: REFRESH_COOKIE,
    refuse: (u) => (u.role !== "admin" && services.admin.maintenance.isOn() ? MAINTENANCE_MESSAGE : null),
    hosts: { publicUrl: env.PUBLIC_URL, trustProxy: env.TRUST_PROXY },
  });

  // Maintenance switched through another instance reaches this one's gate within this long.
  const maintenanceTimer = ctx.shared
    ? setInterval(
        () => void services.admin.maintenance.reload().catch((e) => ctx.log("maintenance: the stored flag could not be read", e)),
        MAINTENANCE_RELOAD_MS,
      )
    : null;
  maintenanceTimer?.unref?.();

  const server = Bun.serve({
    port: env.PORT,
    hostname: env.HOST,
    maxRequestBodySize: TRANSPORT_BODY_LIMIT,
    // Bun resets a connection whose request has not been answered after 10 s (its default), so on a
    // busy machine a slow answer (POST /api/system/start) would become ECONNRESET. An
    // answer may take this long; a socket idle between requests is closed after it as well.
    idleTimeout: 120,
    routes: live.routes,
    fetch: (req) => app.handle(req),
    websocket: live.websocket,
    error(err) {
      logger.error({ err }, "server error");
      return new Response(JSON.stringify({ error: "Something went wrong on our side" }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    },
  });
  servePeerAddressesFrom(server);
  logger.info(
    { port: server.port, dataDir: ctx.dataDir, env: env.NODE_ENV, role: ctx.role },
    `Design Intel listening on http://localhost:${server.port} (data: ${ctx.dataDir}, ${env.NODE_ENV})`,
  );
  const setupToken = await services.auth.pendingSetupToken();
  if (setupToken) {
    // The one deliberate secret in the log, and only until the first account exists: it decides
    // who becomes the admin, and the operator reading this log is meant to be that person.
    const base = env.PUBLIC_URL ?? `http://localhost:${server.port}`;
    logger.info(`No account yet. Create the first (admin) account at: ${base}/signup?setup=${setupToken}`);
  }
  return {
    async stop() {
      if (maintenanceTimer) clearInterval(maintenanceTimer);
      services.live.disconnect(() => true, "Server restarting", 1001);
      await server.stop(false);
    },
  };
}
