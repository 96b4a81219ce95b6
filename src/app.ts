import { type AnyElysia, Elysia } from "elysia";
import { z } from "zod";
import packageJson from "../package.json" with { type: "json" };
import { migrationsFor, type SqlDb } from "./db/sql";
import type { Env } from "./env";
import { httpBase } from "./http/base";
import { binaryResponse, responds } from "./http/contract";
import { buildOpenApiDocument, DOCS_HTML, DOCS_PATH, DOCS_SCRIPT_PATH, docsScript, OPENAPI_PATH } from "./http/openapi";
import { hostGuard, isLoopbackHostname } from "./http/host-guard";
import { randomToken } from "./lib/ids";
import { readCookie } from "./http/cookies";
import { notFound } from "./http/errors";
import { type BudgetFactory, RateLimiter } from "./http/rate-limit";
import { sharedRateLimiter } from "./modules/rate-limits/public";
import { maintenanceGate } from "./http/maintenance";
import { RequestMetrics } from "./http/request-metrics";
import { REQUEST_ID_HEADER } from "./http/request-log";
import { securityHeaders } from "./http/security-headers";
import { createLogger, logFn, type Logger } from "./lib/logger";
import { LiveHub } from "./live/hub";
import { activityRoutes } from "./modules/activity";
import { activityService } from "./modules/activity/service";
import { adminRoutes } from "./modules/admin";
import { agentsRoutes } from "./modules/agents";
import type { Cadence } from "./modules/agents/public";
import { agentsService } from "./modules/agents/service";
import { MAINTENANCE_MESSAGE } from "./modules/admin/model";
import { adminService } from "./modules/admin/service";
import { allApiKeyRoutes, apiKeyRoutes, personalApiKeyRoutes, workspaceApiKeyRoutes } from "./modules/api-keys";
import { apiKeyGate } from "./modules/api-keys/gate";
import { isApiKey } from "./modules/api-keys/model";
import { apiKeyService } from "./modules/api-keys/service";
import { workspaceAccess } from "./modules/workspaces/access";
import type { CurrentWorkspace } from "./modules/workspaces/model";
import { ssoNewcomersRoutes, workspaceRoutes } from "./modules/workspaces";
import { workspacesService } from "./modules/workspaces/service";
import { auditRoutes, workspaceAuditRoutes } from "./modules/audit";
import { auditService } from "./modules/audit/service";
import { REFRESH_COOKIE, authRoutes } from "./modules/auth";
import type { PublicUser } from "./modules/auth/model";
import { authService } from "./modules/auth/service";
import { deviceCookies } from "./modules/auth/device-cookie";
import { loginThrottle } from "./modules/auth/device-cookie-throttle";
import { accessTokens } from "./modules/auth/tokens";
import { oidcRoutes } from "./modules/auth/oidc";
import type { OidcSettings, SsoOffer } from "./modules/auth/oidc/model";
import { oidcService } from "./modules/auth/oidc/service";
import { comparisonRoutes } from "./modules/comparisons";
import type { CaptureReadiness } from "./modules/capture/browser/pool";
import { createRunTools, type RunTools } from "./modules/comparisons/active-runs";
import { comparisonsService } from "./modules/comparisons/service";
import { discoveryRoutes } from "./modules/discovery";
import { discoveryService } from "./modules/discovery/service";
import { filmstripRoutes } from "./modules/filmstrip";
import { filmstripService } from "./modules/filmstrip/service";
import { screenshotFiles } from "./modules/comparisons/files";
import { storageFor, type BlobStorage } from "./modules/storage";
import { changesRoutes } from "./modules/changes";
import { changeHistory } from "./modules/changes/public";
import { changesService } from "./modules/changes/service";
import { historyRoutes } from "./modules/history";
import { historyService } from "./modules/history/service";
import { secretsRoutes } from "./modules/secrets";
import { pagesRoutes } from "./modules/pages";
import { pagesService } from "./modules/pages/service";
import { loadSecretsKey } from "./modules/secrets/cipher";
import { secretsService, type SecretsService } from "./modules/secrets/service";
import { sharedRoutes, shareRoutes } from "./modules/share";
import { shareService } from "./modules/share/service";
import { healthRoutes, healthService } from "./modules/health";
import type { ProcessRole } from "./modules/health/model";
import type { LeaseState } from "./modules/leases/public";
import { systemRoutes } from "./modules/system";
import { systemService } from "./modules/system/service";
import { usersRoutes } from "./modules/users";
import { usersService } from "./modules/users/service";
import { waitlistRoutes } from "./modules/waitlist";
import { waitlistService } from "./modules/waitlist/service";
import { smtpMailer } from "./modules/admin/mailer";
import { watchRoutes } from "./modules/watch";
import type { RetryOptions } from "./modules/watch/alerts/retry";
import { systemClock } from "./modules/watch/schedule/scheduler";
import { watchService } from "./modules/watch/service";
import { jobsAdminRoutes } from "./modules/jobs";
import { JobRunner, jobsService, type JobHandlers } from "./modules/jobs/public";

const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#6e56cf"/><path d="M9 22V10h5.5a6 6 0 0 1 0 12z" fill="#fff"/><circle cx="23" cy="11" r="2.5" fill="#fff"/></svg>';

const healthAnswer = z.object({
  ok: z.literal(true),
  /** Capture browsers, when this process runs a capture pool. */
  capture: z.object({ available: z.boolean(), browsers: z.number(), concurrency: z.number(), onDemand: z.boolean() }).nullable(),
});
/** The pool's figures as /api/health has always given them; remote browser servers are named by /api/health/ready only. */
const captureSummary = (r: CaptureReadiness | undefined) =>
  r ? { available: r.available, browsers: r.browsers, concurrency: r.concurrency, onDemand: r.onDemand } : null;
/** SETUP_TOKEN_REQUIRED, or a PUBLIC_URL other people can reach (not loopback). */
const setupTokenRequired = (env: Env) =>
  env.SETUP_TOKEN_REQUIRED || (env.PUBLIC_URL !== undefined && !isLoopbackHostname(new URL(env.PUBLIC_URL).hostname));

/** Sign-in budgets per minute; docs/security.md describes them, tests/api/hardening-lockout.test.ts holds the app to them. */
export const SIGN_IN_LIMITS = { perIpPerMinute: 30, perAccountPerMinute: 10, perDevicePerMinute: 10 };

/** OIDC_* as the sign-in service takes them; null when OIDC_ISSUER is not set (SSO off). */
const oidcSettings = (env: Env): OidcSettings | null =>
  env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
    ? {
        issuer: env.OIDC_ISSUER,
        clientId: env.OIDC_CLIENT_ID,
        clientSecret: env.OIDC_CLIENT_SECRET,
        allowedDomains: env.OIDC_ALLOWED_DOMAINS,
        name: env.OIDC_NAME,
      }
    : null;

export interface AppDeps {
  /** The database (DATABASE_URL): the embedded SQLite file or PostgreSQL, through one async handle. */
  db: SqlDb;
  env: Env;
  secret: Uint8Array;
  now?: () => number;
  /** Per-IP, per-account and per-device (sign-in from a known browser) budgets; tests tighten them. */
  limits?: { perIpPerMinute: number; perAccountPerMinute: number; perDevicePerMinute?: number };
  log?: (msg: string, err?: unknown) => void;
  /** JSON-lines logger for the per-request lines; stdout at LOG_LEVEL when absent. */
  logger?: Logger;
  /**
   * What comparison runs call out to: the capture pool, analyser and findings step (src/boot wires
   * the real ones; tests hand in fakes). Live messages and activity entries go to this app's hub
   * and feed unless given here. Without `capture` the server cannot start a run.
   */
  runTools?: RunTools;
  /** Capture browsers up and ready, reported by /api/health (src/boot wires the pool). */
  captureReadiness?: () => CaptureReadiness;
  /** Agent cadences (tests shorten them). */
  agentCadence?: Partial<Cadence>;
  /** Alert delivery backoff (tests record the waits instead of sleeping them). */
  alertRetry?: RetryOptions;
  /** Where screenshots, filmstrips and backups are kept; built from the env (STORAGE_URL) when absent. */
  storage?: BlobStorage;
  /** What this process runs (src/boot): what its readiness checks. The single process (`all`) when absent. */
  role?: ProcessRole;
  /** A scheduler's lease as it sees it, for its readiness (src/boot/scheduling.ts). */
  schedulerLease?: () => LeaseState | null;
  /**
   * This process as the runs it starts record it, when other instances share the database: they
   * fail its runs once it stops keeping its drive lease (src/boot/run-drivers.ts).
   */
  driver?: string;
  /** Job kinds this process runs besides the alert and digest ones (a worker's capture jobs). */
  jobHandlers?: JobHandlers;
  /** Job attempts this process runs at once (the job runner's default when absent). */
  jobConcurrency?: number;
  /**
   * Sign-in, sign-up and waitlist budgets counted in the database, so they hold across every
   * instance of a deployment (src/boot sets it on PostgreSQL); in this process's memory otherwise.
   */
  sharedLimits?: boolean;
  /** Whether this process may run the agents now (the system module's `hostsAgents`); true when absent. */
  hostsAgents?: boolean | (() => boolean);
}

/** Where the sign-in and sign-up budgets count: the database when instances share it, else memory. */
const budgetsFor =
  (deps: AppDeps): BudgetFactory =>
  (name, limit, windowMs) =>
    deps.sharedLimits ? sharedRateLimiter(deps.db, { name, limit, windowMs, now: deps.now }) : new RateLimiter(limit, windowMs, deps.now);

export function createServices(deps: AppDeps) {
  const tokens = accessTokens(deps.secret, deps.now);
  const workspaces = workspaceAccess(deps.db);
  // A workspace's live messages reach its members as they are at each message.
  const live = new LiveHub({ membersOf: workspaces.members, log: deps.log });
  const audit = auditService(deps.db, deps.now);
  const apiKeys = apiKeyService({ db: deps.db, audit, now: deps.now });
  const lim = deps.limits ?? SIGN_IN_LIMITS;
  const auth = authService({
    db: deps.db,
    tokens,
    adminEmails: deps.env.ADMIN_EMAILS,
    events: audit.authEvents,
    apiKeys: { isKey: isApiKey, principalForKey: apiKeys.principalForKey },
    workspaces,
    now: deps.now,
    deviceCookies: deviceCookies(deps.secret, deps.now),
    setupToken: setupTokenRequired(deps.env) ? randomToken(24) : undefined,
    loginThrottle: loginThrottle(
      {
        perIpPerMinute: lim.perIpPerMinute,
        perAccountPerMinute: lim.perAccountPerMinute,
        perDevicePerMinute: lim.perDevicePerMinute ?? lim.perAccountPerMinute,
      },
      deps.now,
      budgetsFor(deps),
    ),
    passwordLogin: { mode: deps.env.PASSWORD_LOGIN, ssoName: deps.env.OIDC_NAME },
    // A selector, not a function: the session's sockets on every instance close.
    onLogout: (userId, sessionId) => live.disconnect({ userId, sessionId }, "Signed out"),
  });
  const sso = oidcSettings(deps.env);
  const oidc =
    sso &&
    oidcService({
      db: deps.db,
      auth,
      settings: sso,
      secret: deps.secret,
      publicUrl: deps.env.PUBLIC_URL,
      now: deps.now,
      log: deps.log,
      // First-time SSO users also join the workspace the super-admin chose (teams is built below).
      onFirstSignIn: (userId) => teams.joinAsNewcomer(userId),
    });
  const waitlist = waitlistService(deps.db);
  const metrics = new RequestMetrics(undefined, deps.now);
  const activity = activityService(deps.db, deps.now);
  // Built once, here: runs read this object at every step, so a test swaps a part on services.runTools.
  const runTools =
    deps.runTools &&
    createRunTools(deps.runTools, {
      publish: (message, to) => live.publish(message, to),
      recordActivity: (entry) => activity.record(entry),
    });
  const history = historyService({ db: deps.db });
  // One store for every reader and writer of files: an object store's pins and ordered deletes live in it.
  const storage = deps.storage ?? storageFor(deps.env);
  const files = screenshotFiles(deps.env.DATA_DIR, storage);
  // Work that must survive a restart is a row in the jobs table (src/modules/jobs).
  const jobs = jobsService({ db: deps.db, now: deps.now });
  const changes = changesService({
    db: deps.db,
    dataDir: deps.env.DATA_DIR,
    files,
    runs: history.runs,
    log: deps.log,
    // Alert rules hear about a run's changes once they are stored, in the background (watch is built below; runs start after boot).
    onChanges: (found) => watch.alertRunChanges(found),
    publish: (message, to) => live.publish(message, to),
    // Each run lists its sites' pages once, for `pages` changes (discovery is built below).
    listPages: (url) => discovery.listPages(url),
    // Each completed run's detection is a job; a serve or scheduler leaves its pixel work to the workers.
    jobs,
    detectHere: (deps.role ?? "all") === "all",
  });
  const comparisons = comparisonsService({
    db: deps.db,
    dataDir: deps.env.DATA_DIR,
    files,
    allowPrivateTargets: deps.env.ALLOW_PRIVATE_TARGETS,
    tools: runTools,
    now: deps.now,
    log: deps.log,
    historyKeep: deps.env.HISTORY_KEEP,
    driver: deps.driver,
    // Change detection against the previous completed run; the run closes after it.
    onCaptured: (run) => changes.onRunCaptured(run),
    onCompleted: (run) => changes.onRunCompleted(run),
    // Deferred scheduled runs of the owner are tried as soon as one of their runs ends.
    // Not awaited: the run is closed already, and bringing the owner's deferred slots forward is a nicety.
    onClosed: (run) => void watch.runEnded(run.ownerId).catch((e) => deps.log?.("bringing deferred slots forward failed", e)),
    scheduleOf: (ownerId, id) => watch.schedules.get(ownerId, id),
    audit,
    // A page's steps type its site's secrets; read as each capture starts (secrets is built below).
    secretsOf: (targetId, names) => secretValues(secrets, targetId, names),
  });
  const users = usersService({ db: deps.db, audit, endSessions: auth.endSessions, revokeApiKeys: apiKeys.revokeAllOf, live });
  const admin = adminService({
    db: deps.db,
    env: deps.env,
    requests: metrics,
    live,
    audit,
    activity,
    userCounts: users.counts,
    adminEmails: users.activeAdminEmails,
    activeApiKeys: apiKeys.countActive,
    historyStorage: history.storage,
    storage,
    log: deps.log,
    now: deps.now,
  });
  const system = systemService({
    db: deps.db,
    hub: live,
    activity,
    now: deps.now,
    log: deps.log,
    cadence: deps.agentCadence,
    hostsAgents: deps.hostsAgents,
    // TrendHunter's moves across each set come from the stored changes (the worker builds its own on its connection).
    changes: changeHistory(deps.db),
    // The system's switch is audited in the background: its callbacks are synchronous (the system module's).
    onChange: (action, actor) =>
      void audit.recordBy({ id: actor?.id ?? null, email: actor?.email ?? null }, action).catch((e) => deps.log?.("audit failed", e)),
  });
  const agents = agentsService({ db: deps.db, now: deps.now, onSettingsChanged: () => system.poke() });
  const watch = watchService({
    jobs,
    db: deps.db,
    startRun: (ownerId, comparisonId, trigger) => comparisons.start(ownerId, comparisonId, trigger),
    isRunning: (comparisonId) => comparisons.isRunning(comparisonId),
    allowPrivateTargets: deps.env.ALLOW_PRIVATE_TARGETS,
    // PUBLIC_URL when the env has it; otherwise the port on this machine (right for a local install).
    publicUrl: deps.env.PUBLIC_URL ?? `http://localhost:${deps.env.PORT}`,
    mailer: deps.env.SMTP_URL ? smtpMailer(deps.env.SMTP_URL, deps.env.ALERT_EMAIL_FROM) : undefined,
    // The digest lists each watched comparison's stored changes.
    changes: changeHistory(deps.db),
    retry: deps.alertRetry,
    now: deps.now,
    clock: deps.now ? { ...systemClock, now: deps.now } : undefined,
    log: deps.log,
  });
  // The worker loop for every job kind; boot starts it (src/boot/roles), tests drive jobs themselves.
  const jobRunner = new JobRunner({
    queue: jobs,
    handlers: { ...watch.jobHandlers, ...changes.jobHandlers, ...deps.jobHandlers },
    concurrency: deps.jobConcurrency,
    log: deps.log,
  });
  const filmstrips = filmstripService({ db: deps.db, dataDir: deps.env.DATA_DIR, files, now: deps.now, log: deps.log });
  const discovery = discoveryService({ db: deps.db, allowPrivateTargets: deps.env.ALLOW_PRIVATE_TARGETS, log: deps.log });
  const pages = pagesService({
    db: deps.db,
    now: deps.now,
    log: deps.log,
    // The removal asks the database and deletes after: its failure is logged, as the pages module's own are.
    removeUnusedScreenshot: (path, inUse) =>
      files.removeUnused(path, inUse).catch((e) => (deps.log ?? console.error)("could not remove a page's screenshot", e)),
  });
  // The key is read (or made, under DATA_DIR) when the first secret is saved or read.
  const secrets = secretsService({
    db: deps.db,
    key: () => loadSecretsKey(deps.env.DATA_DIR, deps.env.SECRETS_KEY),
    audit,
    now: deps.now,
  });
  // A link reads its run the way the comparison's owner would, through the history and the comparisons' files.
  const shares = shareService({
    db: deps.db,
    audit,
    runResults: history.getRun,
    targets: comparisons.listTargets,
    screenshot: comparisons.screenshot,
    now: deps.now,
  });
  // Workspaces as their members manage them (the request's current workspace is workspaceAccess's).
  const teams = workspacesService({
    db: deps.db,
    audit,
    mailer: deps.env.SMTP_URL ? smtpMailer(deps.env.SMTP_URL, deps.env.ALERT_EMAIL_FROM) : undefined,
    onMemberRemoved: (workspaceId, userId) => apiKeys.revokeMemberKeys(workspaceId, userId),
    // A deleted workspace's comparisons go through their module, so their files go too.
    removeComparisons: async (workspaceId) => {
      for (const c of await comparisons.list(workspaceId)) await comparisons.remove(workspaceId, c.id);
      await comparisons.removeUserFiles(workspaceId);
    },
    now: deps.now,
    log: deps.log,
  });
  return {
    /** The blob store and its working folder (src/boot/context.ts checks it at boot). */
    storage,
    tokens,
    auth,
    /** OpenID Connect sign-in; null when OIDC_ISSUER is not set. */
    oidc,
    /** The tools comparison runs call out to, as built at boot (undefined without `deps.runTools`). */
    runTools,
    waitlist,
    metrics,
    comparisons,
    filmstrips,
    discovery,
    pages,
    secrets,
    history,
    shares,
    changes,
    watch,
    jobs,
    jobRunner,
    live,
    audit,
    apiKeys,
    users,
    admin,
    activity,
    system,
    agents,
    workspaces: teams,
  };
}
export type Services = ReturnType<typeof createServices>;

/** The values of the secrets a page's steps name, by name; a name the site has no secret of is left out. */
async function secretValues(
  secrets: Pick<SecretsService, "reveal">,
  targetId: string,
  names: readonly string[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = await secrets.reveal(targetId, name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** This process's readiness: what its role needs (src/modules/health). */
export function healthFor(deps: AppDeps, services: Pick<Services, "storage">) {
  return healthService({
    db: deps.db,
    dataDir: deps.env.DATA_DIR,
    migrations: migrationsFor(deps.db),
    captureReadiness: deps.captureReadiness,
    store: services.storage.store,
    now: deps.now,
    role: deps.role,
    schedulerLease: deps.schedulerLease,
  });
}

/** What a server-rendered page is handed: the signed-in user and an in-process API call as that user. */
export interface PageContext {
  user: PublicUser | null;
  maintenance: boolean;
  /** Single sign-on, when on: the sign-in page offers it under this name. */
  sso: SsoOffer;
  /** The workspace the page is rendered in (the one last chosen, else the personal one); null when signed out. */
  workspace: CurrentWorkspace | null;
  fetchApi(path: string): Promise<Response>;
}

/**
 * The web front end the app serves (src/ssr): pages rendered on the server, and the files of the
 * client bundle. Handed in rather than imported, so this file, whose App type web/lib/api.ts reads,
 * imports nothing of web/.
 */
export interface WebFrontEnd {
  renderPage(request: Request, context: PageContext, opts: { onError?: (error: unknown) => void }): Promise<Response>;
  serveAsset(name: string, acceptEncoding: string | null): Promise<Response | null>;
}

export function createApp(deps: AppDeps, services: Services, web: WebFrontEnd) {
  const lim = deps.limits ?? SIGN_IN_LIMITS;
  const budget = budgetsFor(deps);
  const limits = {
    perIp: budget("ip", lim.perIpPerMinute, 60_000),
    perAccount: budget("account", lim.perAccountPerMinute, 60_000),
  };
  const logger = deps.logger ?? createLogger({ level: deps.env.LOG_LEVEL });
  const log = deps.log ?? logFn(logger);
  const health = healthFor(deps, services);

  // Server-side loaders call the API in-process through the finished app.
  let handle: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  let openApiDocument: Record<string, unknown> | null = null;
  let documented: AnyElysia | null = null;
  const app = new Elysia()
    .use(httpBase({ metrics: services.metrics, log, logger }))
    .use(hostGuard({ publicUrl: deps.env.PUBLIC_URL, trustProxy: deps.env.TRUST_PROXY }))
    .use(apiKeyGate(services.apiKeys))
    .use(
      maintenanceGate({ isOn: services.admin.maintenance.isOn, resolve: services.auth.userForAccessToken, message: MAINTENANCE_MESSAGE }),
    )
    .get("/api/health", () => ({ ok: true as const, capture: captureSummary(deps.captureReadiness?.()) }), {
      response: { 200: responds(healthAnswer) },
      detail: { tags: ["health"], summary: "The process answers" },
    })
    .use(healthRoutes(health))
    .use(authRoutes(services.auth, limits))
    .use(oidcRoutes(services.oidc, { perIp: limits.perIp, log }))
    .use(waitlistRoutes(services.waitlist, limits))
    .use(adminRoutes(services.admin, services.auth.userForAccessToken))
    .use(jobsAdminRoutes(services.jobs, services.auth.userForAccessToken, () => services.jobRunner.poke()))
    .use(usersRoutes(services.users, services.auth.userForAccessToken))
    .use(auditRoutes(services.audit, services.auth.userForAccessToken))
    .use(apiKeyRoutes(services.apiKeys, services.auth))
    .use(allApiKeyRoutes(services.apiKeys, services.auth.userForAccessToken))
    .use(personalApiKeyRoutes(services.apiKeys, services.auth))
    .use(workspaceApiKeyRoutes(services.apiKeys, services.auth))
    .use(workspaceRoutes(services.workspaces, services.auth, { publicUrl: deps.env.PUBLIC_URL }))
    .use(ssoNewcomersRoutes(services.workspaces, services.auth.userForAccessToken))
    .use(workspaceAuditRoutes(services.audit, services.auth))
    .use(comparisonRoutes(services.comparisons, services.auth))
    .use(filmstripRoutes(services.filmstrips, services.auth))
    .use(discoveryRoutes(services.discovery, services.auth))
    .use(secretsRoutes(services.secrets, services.auth))
    .use(pagesRoutes(services.pages, services.auth))
    .use(historyRoutes(services.history, services.auth))
    .use(shareRoutes(services.shares, services.auth, { publicUrl: deps.env.PUBLIC_URL }))
    .use(sharedRoutes(services.shares))
    .use(changesRoutes(services.changes, services.auth))
    .use(watchRoutes(services.watch, services.auth))
    .use(activityRoutes(services.activity, services.auth))
    .use(agentsRoutes(services.agents, services.auth, { now: deps.now }))
    .use(systemRoutes(services.system, services.auth.userForAccessToken))
    // Built on first request, once every route is registered; routes never change afterwards.
    .get(OPENAPI_PATH, () => (openApiDocument ??= buildOpenApiDocument(documented!, packageJson.version)), {
      response: { 200: responds(z.record(z.string(), z.unknown())) },
      detail: { tags: ["docs"], summary: "This OpenAPI 3.1 document" },
    })
    .get(DOCS_PATH, () => new Response(DOCS_HTML, { headers: { ...securityHeaders(), "content-type": "text/html; charset=utf-8" } }), {
      detail: { tags: ["docs"], summary: "The interactive API reference", ...binaryResponse("text/html", "The reference page") },
    })
    .get(DOCS_SCRIPT_PATH, ({ request }) => docsScript(request.headers.get("accept-encoding")), {
      detail: {
        tags: ["docs"],
        summary: "The reference UI's script (Scalar)",
        ...binaryResponse("text/javascript", "Scalar's standalone bundle"),
      },
    })
    .get(
      "/favicon.svg",
      () => new Response(FAVICON, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } }),
    )
    .get(
      "/favicon.ico",
      () => new Response(FAVICON, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } }),
    )
    .get("/assets/:name", async ({ params, request }) => {
      const res = await web.serveAsset(params.name, request.headers.get("accept-encoding"));
      if (!res) throw notFound("No such asset");
      return res;
    })
    .get("/*", async ({ request, path, set }) => {
      if (path.startsWith("/api/")) throw notFound(`No route for GET ${path}`);
      const refreshToken = readCookie(request.headers.get("cookie"), REFRESH_COOKIE);
      const user = await services.auth.userForRefreshToken(refreshToken);
      const origin = new URL(request.url).origin;
      return web.renderPage(
        request,
        {
          user,
          maintenance: services.admin.maintenance.isOn(),
          sso: services.oidc ? { name: services.oidc.settings.name } : null,
          // What the loaders' calls (no X-Workspace-Id) read; the client starts from it.
          workspace: user ? await services.auth.workspaceFor({ userId: user.id, keyWorkspaceId: null }, null) : null,
          async fetchApi(apiPath) {
            const token = user ? await services.auth.accessTokenFor(refreshToken) : null;
            // The loader's API calls log under the page request's id.
            const headers: Record<string, string> = { [REQUEST_ID_HEADER]: String(set.headers[REQUEST_ID_HEADER] ?? "") };
            if (token) headers.authorization = `Bearer ${token}`;
            return handle(new Request(origin + apiPath, { headers }));
          },
        },
        { onError: (e) => log("server rendering failed", e) },
      );
    });
  handle = (request) => app.handle(request);
  documented = app;
  return app;
}

export type App = ReturnType<typeof createApp>;
