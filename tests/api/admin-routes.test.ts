// Every /api/admin/* and /api/system/* route, read from the router itself: anonymous callers get 401,
// signed-in users 403 (bar the listed exceptions), admins a success. A new route without a fixture
// below fails this test on purpose.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, TEST_ON_POSTGRES } from "#tests/support/app";
import { deadJob } from "#tests/jobs/support";

type TestApp = ReturnType<typeof makeTestApp>;
interface Ctx {
  t: TestApp;
  admin: Awaited<ReturnType<TestApp["signup"]>>;
  user: Awaited<ReturnType<TestApp["signup"]>>;
}
interface Call {
  path: string;
  body?: unknown;
  /** The admin's expected status (2xx). */
  status: number;
}

const dataDir = mkdtempSync(join(tmpdir(), "di-admin-sweep-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** How an admin succeeds on each route. Keys are "METHOD /path/as/registered". */
const FIXTURES: Record<string, (c: Ctx) => Promise<Call> | Call> = {
  "GET /api/admin/system-metrics": () => ({ path: "/api/admin/system-metrics", status: 200 }),
  "GET /api/admin/database-stats": () => ({ path: "/api/admin/database-stats", status: 200 }),
  "GET /api/admin/maintenance": () => ({ path: "/api/admin/maintenance", status: 200 }),
  "POST /api/admin/maintenance": () => ({ path: "/api/admin/maintenance", body: { enabled: false }, status: 200 }),
  "GET /api/admin/backups": () => ({ path: "/api/admin/backups", status: 200 }),
  // On PostgreSQL backups are pg_dump's: the console says so (409) and has none to download.
  "POST /api/admin/backups": () => ({ path: "/api/admin/backups", status: TEST_ON_POSTGRES ? 409 : 201 }),
  "GET /api/admin/backups/:name": async ({ t, admin }) => {
    if (TEST_ON_POSTGRES) return { path: "/api/admin/backups/design-intel-20260101T000000000Z.db", status: 404 };
    const r = await t.call("POST", "/api/admin/backups", { headers: t.auth(admin.token) });
    return { path: `/api/admin/backups/${r.json.backup.name}`, status: 200 };
  },
  "GET /api/admin/alert-settings": () => ({ path: "/api/admin/alert-settings", status: 200 }),
  "PUT /api/admin/alert-settings": () => ({
    path: "/api/admin/alert-settings",
    body: { cpuThreshold: 80, memoryThreshold: 85, errorRateThreshold: 5, emailNotifications: true, slackNotifications: false },
    status: 200,
  }),
  "GET /api/admin/alerts": () => ({ path: "/api/admin/alerts", status: 200 }),
  "GET /api/admin/security-report": () => ({ path: "/api/admin/security-report", status: 200 }),
  "GET /api/admin/users": () => ({ path: "/api/admin/users", status: 200 }),
  "PATCH /api/admin/users/:id": async ({ t }) => {
    const other = await t.signup();
    return { path: `/api/admin/users/${other.user.id}`, body: { role: "user" }, status: 200 };
  },
  "GET /api/admin/audit-logs": () => ({ path: "/api/admin/audit-logs", status: 200 }),
  "GET /api/admin/api-keys": () => ({ path: "/api/admin/api-keys", status: 200 }),
  "POST /api/admin/api-keys": () => ({ path: "/api/admin/api-keys", body: { name: "sweep" }, status: 201 }),
  "DELETE /api/admin/api-keys/:id": async ({ t, admin }) => {
    const r = await t.call("POST", "/api/admin/api-keys", { headers: t.auth(admin.token), body: { name: "to revoke" } });
    return { path: `/api/admin/api-keys/${r.json.apiKey.id}`, status: 200 };
  },
  "GET /api/admin/all-api-keys": () => ({ path: "/api/admin/all-api-keys", status: 200 }),
  "DELETE /api/admin/all-api-keys/:id": async ({ t, user }) => {
    const r = await t.call("POST", "/api/api-keys", { headers: t.auth(user.token), body: { name: "someone else's", scope: "read" } });
    return { path: `/api/admin/all-api-keys/${r.json.id}`, status: 200 };
  },
  "GET /api/admin/jobs": () => ({ path: "/api/admin/jobs?state=dead", status: 200 }),
  "POST /api/admin/jobs/:id/retry": async ({ t }) => ({ path: `/api/admin/jobs/${await deadJob(t.services.jobs)}/retry`, status: 200 }),
  "GET /api/admin/sso-newcomers": () => ({ path: "/api/admin/sso-newcomers", status: 200 }),
  "PUT /api/admin/sso-newcomers": () => ({ path: "/api/admin/sso-newcomers", body: { workspaceId: null, role: "viewer" }, status: 200 }),
  "GET /api/system/status": () => ({ path: "/api/system/status", status: 200 }),
  "POST /api/system/start": () => ({ path: "/api/system/start", status: 200 }),
  "POST /api/system/stop": () => ({ path: "/api/system/stop", status: 200 }),
  "POST /api/system/restart": () => ({ path: "/api/system/restart", status: 200 }),
};

/** Deliberate exceptions: any signed-in user may read these (the status bar shows whether the system runs). */
const USER_READABLE = new Set(["GET /api/system/status"]);

const guarded = (path: string) => path.startsWith("/api/admin/") || path.startsWith("/api/system/");
/** Registered paths may end in "/" when a module mounts its list at the prefix. */
const key = (method: string, path: string) => `${method} ${path.replace(/\/$/, "")}`;

describe("admin route sweep", async () => {
  const t = makeTestApp({ env: { DATA_DIR: dataDir } });
  const admin = await t.signup();
  const user = await t.signup();
  afterAll(() => t.services.system.stop());
  const routes = t.app.routes.filter((r) => guarded(r.path)).map((r) => ({ method: r.method, path: r.path }));

  test("finds the admin routes in the router", () => {
    expect(routes.length).toBeGreaterThanOrEqual(16);
  });

  test("every guarded route has a success fixture", () => {
    const missing = routes.map((r) => key(r.method, r.path)).filter((k) => !FIXTURES[k]);
    expect(missing).toEqual([]);
  });

  for (const r of routes) {
    const name = key(r.method, r.path);
    const concrete = r.path.replace(/:(\w+)/g, "sweep-$1");
    test(`${name}: 401 anonymous, ${USER_READABLE.has(name) ? 200 : 403} user, success admin`, async () => {
      const anon = await t.call(r.method, concrete, { body: r.method === "GET" ? undefined : {} });
      expect(anon.status).toBe(401);
      expect(anon.json?.error).toBeString();
      const asUser = await t.call(r.method, concrete, { headers: t.auth(user.token), body: r.method === "GET" ? undefined : {} });
      expect(asUser.status).toBe(USER_READABLE.has(name) ? 200 : 403);
      expect(asUser.json?.error === undefined).toBe(USER_READABLE.has(name));
      const fixture = FIXTURES[name];
      if (!fixture) return; // reported by the fixture test above
      const call = await fixture({ t, admin, user });
      const ok = await t.call(r.method, call.path, { headers: t.auth(admin.token), body: call.body });
      expect(ok.status, `${name}: ${ok.text.slice(0, 200)}`).toBe(call.status);
    });
  }
});
