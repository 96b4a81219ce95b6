// Two instances of the app on one PostgreSQL database, as a deployment runs them: what one writes
// is what the other answers as soon as the commit's announcement reaches it (a NOTIFY, milliseconds
// on a healthy server, LISTEN_LAG_MS at worst). The per-request reads (the token's user, the
// workspace, the comparisons list) are answered from memory only while every other instance's
// commits are heard (src/db/change-stamp.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { createApp, createServices, type AppDeps } from "#server/app";
import { databaseTarget, migrateSql, openSql, type SqlDb } from "#server/db/sql";
import { loadEnv } from "#server/env";
import { logFn } from "#server/lib/logger";
import { memoryLogger } from "#tests/support/logs";
import { webFrontEnd } from "#server/ssr";
import { LISTEN_LAG_MS } from "#server/db/sql/pg-changes";
import { freshPgDatabase, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";

const SECRET = new TextEncoder().encode("test-secret-test-secret-test-secret-1234");

function instance(db: SqlDb) {
  const env = loadEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/design-intel-test" });
  mkdirSync(env.DATA_DIR, { recursive: true });
  const logs = memoryLogger(env.LOG_LEVEL);
  const deps: AppDeps = {
    db,
    env,
    secret: SECRET,
    limits: { perIpPerMinute: 1000, perAccountPerMinute: 1000 },
    log: logFn(logs.logger),
    logger: logs.logger,
  };
  const app = createApp(deps, createServices(deps), webFrontEnd);
  return async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as any) : null };
  };
}

/**
 * Asks until `check` holds: another instance's commit is answered once its announcement arrived,
 * and by the time LISTEN_LAG_MS has passed at the latest. An instance that never heard it fails.
 */
async function soon(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = performance.now() + LISTEN_LAG_MS + 500;
  while (!(await check())) {
    if (performance.now() > deadline) return false;
    await Bun.sleep(5);
  }
  return true;
}

describe.skipIf(pgMissing !== null)("two instances on one PostgreSQL database", () => {
  let dbA: SqlDb;
  let dbB: SqlDb;
  beforeAll(async () => {
    const url = await freshPgDatabase();
    dbA = await openSql(databaseTarget(url, "."), { max: 2 });
    await migrateSql(dbA);
    dbB = await openSql(databaseTarget(url, "."), { max: 2 });
  }, PG_START_TIMEOUT);
  afterAll(async () => {
    await dbA?.close();
    await dbB?.close();
    await stopPostgres();
  });

  test("a user disabled, a comparison created and a session ended through one are soon seen by the other", async () => {
    const a = instance(dbA);
    const b = instance(dbB);
    const admin = (await b("POST", "/api/auth/signup", undefined, { email: "admin@example.com", password: "password-1" })).json;
    const user = (await b("POST", "/api/auth/signup", undefined, { email: "user@example.com", password: "password-1" })).json;
    const list = () => a("GET", "/api/comparisons", user.accessToken);
    expect((await list()).json).toEqual([]);
    // A keeps what it reads once it hears the database's commits: from here on it answers from
    // memory the user, the workspace and the empty list.
    expect(await soon(async () => !Number.isNaN(dbA.changeStamp!()))).toBe(true);
    for (let i = 0; i < 3; i++) expect((await list()).json).toEqual([]);

    expect((await b("POST", "/api/comparisons", user.accessToken, { name: "Through B" })).status).toBe(201);
    const names = async () => (await list()).json?.map?.((c: { name: string }) => c.name);
    expect(await soon(async () => Bun.deepEquals(await names(), ["Through B"]))).toBe(true);

    expect((await b("PATCH", `/api/admin/users/${user.user.id}`, admin.accessToken, { disabled: true })).status).toBe(200);
    expect(await soon(async () => (await list()).status === 401)).toBe(true);
    // Disabling ended the user's sessions: they sign in again once re-enabled.
    expect((await b("PATCH", `/api/admin/users/${user.user.id}`, admin.accessToken, { disabled: false })).status).toBe(200);

    // A session ended through B ends its access tokens on A too.
    const session = await a("POST", "/api/auth/login", undefined, { email: "user@example.com", password: "password-1" });
    expect((await a("GET", "/api/comparisons", session.json.accessToken)).status).toBe(200);
    await dbB.run("UPDATE refresh_tokens SET revoked_at = $1 WHERE user_id = $2", [new Date().toISOString(), user.user.id]);
    expect(await soon(async () => (await a("GET", "/api/comparisons", session.json.accessToken)).status === 401)).toBe(true);
  });
});
