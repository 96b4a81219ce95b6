// The server: storage, capture pool, app, sockets, and a graceful stop. Every line it writes is a
// JSON log line (src/lib/logger.ts).
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { createApp, createServices } from "#server/app";
import { openStorage, openStorageWhenAvailable } from "./storage";
import { browserEgress, EnvError, loadEnv } from "#server/env";
import { TRANSPORT_BODY_LIMIT } from "#server/http/base";
import { servePeerAddressesFrom } from "#server/http/client-ip";
import { findChromium } from "#server/lib/chromium";
import { bufferLogs, createLogger, flushLogsSync, logFn } from "#server/lib/logger";
import { createAnalyser } from "#server/modules/analysis";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { liveSockets } from "#server/live/ws";
import { REFRESH_COOKIE } from "#server/modules/auth";
import { MAINTENANCE_MESSAGE } from "#server/modules/admin/model";
import { storageFor, storageProblem } from "#server/modules/storage";
import { webFrontEnd } from "#server/ssr";
import { poolRunTools } from "./run-tools";

export async function serve() {
  let env;
  try {
    env = loadEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      // LOG_LEVEL itself may be among the bad values: this one line is always written.
      const [title, ...problems] = e.message.split("\n");
      createLogger({ level: "info", sync: true }).fatal({ problems: problems.map((p) => p.trim()) }, title!.replace(/:$/, ""));
      process.exit(1);
    }
    throw e;
  }
  const logger = createLogger({ level: env.LOG_LEVEL });
  // Everything this process writes (database, screenshots, backups, secret) is for its own account only.
  process.umask(0o077);
  const dataDir = resolve(env.DATA_DIR);
  let opened;
  try {
    opened = await openStorageWhenAvailable(
      () => openStorage(dataDir, env),
      { port: env.PORT, hostname: env.HOST },
      { log: (m) => logger.warn(m) },
    );
  } catch (e) {
    // PostgreSQL unreachable, refusing, too old: one fatal line that names it (its password never shown).
    const message = e instanceof Error ? e.message : String(e);
    if (!message.startsWith("DATABASE_URL: ")) throw e;
    createLogger({ level: "info", sync: true }).fatal(message);
    process.exit(1);
  }
  const { db, secret, migrationsApplied, permissions } = opened;
  logger.info({ database: db.detail }, `database: ${db.detail}`);
  if (migrationsApplied.length) logger.info({ versions: migrationsApplied }, `migrations applied: ${migrationsApplied.join(", ")}`);
  if (permissions.fixed)
    logger.info({ fixed: permissions.fixed }, `made ${permissions.fixed} files and folders under ${dataDir} owner-only`);
  for (const f of permissions.failed.slice(0, 5))
    logger.error({ path: f.path, code: f.code }, `could not make ${f.path} owner-only (${f.code})`);

  // STORAGE_URL: an object store that cannot be reached, has no such bucket or refuses the
  // credentials stops the server here, in one line, before anything is captured into it.
  const storage = storageFor({ ...env, DATA_DIR: dataDir });
  const problem = await storageProblem(env, storage.store);
  if (problem) {
    createLogger({ level: "info", sync: true }).fatal({ storage: storage.store.description }, problem);
    if (storage.workDir) rmSync(storage.workDir, { recursive: true, force: true });
    process.exit(1);
  }
  logger.info({ storage: storage.store.description }, `files kept in ${storage.store.description}`);

  const log = logFn(logger);
  const pool = new CapturePool({
    log: (m) => logger.warn(m),
    concurrency: env.CAPTURE_CONCURRENCY,
    chromiumPath: findChromium(env.CHROMIUM_PATH),
    allowPrivate: env.ALLOW_PRIVATE_TARGETS,
    navigationTimeoutMs: env.CAPTURE_NAV_TIMEOUT_MS,
    totalTimeoutMs: env.CAPTURE_TOTAL_TIMEOUT_MS,
    timingSamples: env.CAPTURE_TIMING_SAMPLES,
    mobileTimingProfile: env.CAPTURE_MOBILE_PROFILE,
    ...(env.BROWSER_WS_ENDPOINTS.length ? { remote: { endpoints: env.BROWSER_WS_ENDPOINTS, egress: browserEgress(env) } } : {}),
  });
  // Capture browsers launch alongside the boot (on their own threads and processes), so the first
  // analysis doesn't wait for them; CAPTURE_LAZY leaves them to the first capture (and closes idle
  // ones), for a host where the memory of idle browsers matters more than that wait.
  if (!env.CAPTURE_LAZY) pool.warm();
  const analyser = createAnalyser();
  const deps = {
    db,
    env: { ...env, DATA_DIR: dataDir },
    secret,
    log,
    logger,
    captureReadiness: () => pool.readiness(),
    runTools: poolRunTools(pool, analyser, env, log),
    storage,
  };
  const services = createServices(deps);
  const app = createApp(deps, services, webFrontEnd);
  // Runs a crash left half-done are failed with a reason, never left running.
  await services.comparisons.recoverInterruptedRuns();
  // Screenshots no snapshot names (a crash between a row's deletion and its file's): nothing runs yet.
  void services.comparisons.sweepScreenshots().catch((e) => log("screenshot sweep failed", e));

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
    { port: server.port, dataDir, env: env.NODE_ENV },
    `Design Intel listening on http://localhost:${server.port} (data: ${dataDir}, ${env.NODE_ENV})`,
  );
  const setupToken = await services.auth.pendingSetupToken();
  if (setupToken) {
    // The one deliberate secret in the log, and only until the first account exists: it decides
    // who becomes the admin, and the operator reading this log is meant to be that person.
    const base = env.PUBLIC_URL ?? `http://localhost:${server.port}`;
    logger.info(`No account yet. Create the first (admin) account at: ${base}/signup?setup=${setupToken}`);
  }
  bufferLogs();
  // An agent system that was on before the restart comes back on.
  void services.system.resume();
  // Host metrics to admins' sockets every few seconds, and the alert-threshold checks.
  services.admin.sampler.start();
  // Scheduled runs: slots missed while the server was down run once now, then on time.
  void services.watch.scheduler.start().catch((e) => log("scheduler: first pass failed (retrying)", e));
  void services.watch.digest.start().catch((e) => log("watch digest: first pass failed", e));
  // Jobs (alert deliveries, digests): those left by a stop or a crash run now, retries when due.
  services.jobRunner.start();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${signal}: draining requests`);
    services.admin.sampler.stop();
    services.watch.scheduler.stop();
    services.watch.digest.stop();
    await services.system.shutdown();
    services.live.disconnect(() => true, "Server restarting", 1001);
    await server.stop(false);
    await Promise.race([services.comparisons.whenIdle(), Bun.sleep(5_000)]);
    // Runs that did not finish in time end with the restart reason, then stop writing before the DB closes.
    await Promise.race([services.comparisons.interruptRuns(), Bun.sleep(2_000)]);
    await pool.close();
    await Promise.race([services.comparisons.whenIdle(), Bun.sleep(2_000)]);
    // Alerts of runs that just finished get a moment to go out; one waiting for a retry is a job in
    // the database, run by the next start (an attempt cut short here is tried again once its lease runs out).
    const alertsSent = await Promise.race([services.watch.alertsIdle().then(() => true), Bun.sleep(3_000).then(() => false)]);
    if (!alertsSent) logger.warn("shutdown: change alerts waiting for a retry stay queued for the next start");
    await Promise.race([services.jobRunner.stop(), Bun.sleep(2_000)]);
    analyser.close();
    await db.close();
    if (storage.workDir) rmSync(storage.workDir, { recursive: true, force: true });
    logger.info("stopped cleanly");
    flushLogsSync();
    process.exit(0);
  };
  // A promise nobody awaited that failed is a bug (the type-aware lint keeps them out of src/), not a
  // reason to drop every user's connection: it is logged, and the server carries on.
  process.on("unhandledRejection", (err) => logger.error({ err }, "unhandled rejection"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
