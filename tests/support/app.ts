import { mkdirSync } from "node:fs";
import { createApp, createServices, type AppDeps } from "#server/app";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import { lazyMigratedPg } from "./postgres";
import { loadEnv } from "#server/env";
import { logFn } from "#server/lib/logger";
import { webFrontEnd } from "#server/ssr";
import { memoryLogger } from "./logs";

export interface TestAppOptions {
  env?: Record<string, string>;
  limits?: AppDeps["limits"];
  now?: () => number;
  /** Fake or real capture/analysis for comparison runs; the app builds its tools from them once (see `tools`). */
  runTools?: AppDeps["runTools"];
  /** The capture pool's state as /api/health/ready sees it. */
  captureReadiness?: AppDeps["captureReadiness"];
  alertRetry?: AppDeps["alertRetry"];
  /** A database file instead of memory, for tests that read the bytes the database writes. */
  dbPath?: string;
  /** A database handle several apps share, as instances of one deployment do (with `sharedLimits`, their budgets too). */
  sql?: AppDeps["db"];
  sharedLimits?: boolean;
  /** What the process runs (a serve leaves change detection to the workers); the single process when absent. */
  role?: AppDeps["role"];
}

/**
 * The database a test app runs on: TEST_DATABASE=postgres gives each app a fresh PostgreSQL
 * database of this process's throwaway cluster (tests/support/postgres.ts); otherwise SQLite in memory.
 */
export const TEST_ON_POSTGRES = process.env.TEST_DATABASE === "postgres";

/**
 * A fresh app driven through app.handle (no network), on an in-memory SQLite database, or on
 * PostgreSQL under TEST_DATABASE=postgres. `db` is the SQLite connection, for tests that read or
 * seed rows directly; such tests run on SQLite only (it is null on PostgreSQL).
 */
export function makeTestApp(opts: TestAppOptions = {}) {
  const onPostgres = (TEST_ON_POSTGRES && !opts.dbPath) || Boolean(opts.sql);
  const db = onPostgres ? null : openDatabase(opts.dbPath ?? ":memory:");
  if (db) migrate(db);
  const env = loadEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/design-intel-test", ...opts.env });
  // The server makes DATA_DIR at boot; readiness creates a file in it.
  mkdirSync(env.DATA_DIR, { recursive: true });
  // Logs are kept in memory (tests read them through `logs`), never printed.
  const logs = memoryLogger(env.LOG_LEVEL);
  const deps: AppDeps = {
    db: db ? sqliteSql(db) : (opts.sql ?? lazyMigratedPg()),
    env,
    secret: new TextEncoder().encode("test-secret-test-secret-test-secret-1234"),
    limits: opts.limits ?? { perIpPerMinute: 1000, perAccountPerMinute: 1000 },
    now: opts.now,
    log: logFn(logs.logger),
    logger: logs.logger,
    runTools: opts.runTools,
    captureReadiness: opts.captureReadiness,
    alertRetry: opts.alertRetry,
    sharedLimits: opts.sharedLimits,
    role: opts.role,
  };
  const services = createServices(deps);
  const app = createApp(deps, services, webFrontEnd);

  async function call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; raw?: string } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined;
    if (init.raw !== undefined) body = init.raw;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* html or empty */
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  /** Signs up a user and returns its token, cookie and user. */
  async function signup(email = `u${Math.random().toString(36).slice(2)}@example.com`, password = "correct-horse-battery") {
    const r = await call("POST", "/api/auth/signup", { body: { email, password } });
    if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${r.text}`);
    const cookie = (r.headers.get("set-cookie") ?? "").split(";")[0]!;
    return { token: r.json.accessToken as string, cookie, user: r.json.user, email, password };
  }

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  /**
   * The tools the app's runs call out to, built from `runTools` (undefined without them). A test
   * swaps a part here, after the app is built; a change to the object it passed in is not seen.
   */
  const tools = services.runTools;

  // Typed as the SQLite connection: the files that use it are the ones kept off the PostgreSQL pass.
  return { app, db: db!, sql: deps.db, env, services, tools, call, signup, auth, logs };
}
