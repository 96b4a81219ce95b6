import { describe, expect, test } from "bun:test";
import type { LiveSocket } from "#server/live/hub";
import { makeTestApp } from "#tests/support/app";

const BANNER = "System is currently in maintenance mode. Users cannot access the application.";

function fakeSocket(userId: string, role: "user" | "admin") {
  const s = { userId, role, closed: null as null | { code?: number; reason?: string }, sent: [] as string[] } as LiveSocket & {
    closed: null | { code?: number; reason?: string };
    sent: string[];
  };
  s.send = (d: string) => void s.sent.push(d);
  s.close = (code?: number, reason?: string) => void (s.closed = { code, reason });
  return s;
}

describe("maintenance mode", () => {
  test("non-admin API calls answer 503 with the banner and Retry-After; admins, auth and public routes keep working", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const user = await t.signup();

    const on = await t.call("POST", "/api/admin/maintenance", { headers: t.auth(admin.token), body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.json).toMatchObject({ enabled: true, message: BANNER, by: admin.email });

    const blocked = await t.call("GET", "/api/comparisons", { headers: t.auth(user.token) });
    expect(blocked.status).toBe(503);
    expect(blocked.json).toEqual({ error: BANNER });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);

    // Anonymous callers are told about maintenance too, rather than asked to sign in.
    expect((await t.call("GET", "/api/comparisons")).status).toBe(503);
    // A non-admin does not get through to admin routes either.
    expect((await t.call("GET", "/api/admin/system-metrics", { headers: t.auth(user.token) })).status).toBe(503);

    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(admin.token) })).status).toBe(200);
    expect((await t.call("GET", "/api/admin/system-metrics", { headers: t.auth(admin.token) })).status).toBe(200);
    expect((await t.call("GET", "/api/health")).status).toBe(200);
    expect((await t.call("GET", "/api/maintenance")).json).toEqual({ enabled: true, message: BANNER });
    const login = await t.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(login.json.accessToken) })).status).toBe(200);
    expect((await t.call("POST", "/api/beta-signups", { body: { email: "fan@example.com", source: "header" } })).status).toBe(201);
    // Public pages still render.
    expect((await t.call("GET", "/")).status).toBe(200);

    const off = await t.call("POST", "/api/admin/maintenance", { headers: t.auth(admin.token), body: { enabled: false } });
    expect(off.json.enabled).toBe(false);
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(user.token) })).status).toBe(200);
  });

  test("the flag is persisted: a new app on the same database starts in maintenance", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    await t.call("POST", "/api/admin/maintenance", { headers: t.auth(admin.token), body: { enabled: true } });
    const { createServices } = await import("#server/app");
    const again = createServices({ db: t.sql, env: t.env, secret: new Uint8Array(32), log: () => {} });
    await again.admin.maintenance.loaded;
    expect(again.admin.maintenance.isOn()).toBe(true);
  });

  test("switching it on closes the sockets of non-admins only", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const user = await t.signup();
    const userSocket = fakeSocket(user.user.id, "user");
    const adminSocket = fakeSocket(admin.user.id, "admin");
    t.services.live.add(userSocket);
    t.services.live.add(adminSocket);
    await t.call("POST", "/api/admin/maintenance", { headers: t.auth(admin.token), body: { enabled: true } });
    expect(userSocket.closed).not.toBeNull();
    expect(adminSocket.closed).toBeNull();
    expect(t.services.live.size).toBe(1);
  });

  test("enabled must be a boolean", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    for (const body of [{ enabled: "true" }, { enabled: 1 }, {}, { enabled: null }]) {
      const r = await t.call("POST", "/api/admin/maintenance", { headers: t.auth(admin.token), body });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("enabled must be true or false");
    }
    expect(t.services.admin.maintenance.isOn()).toBe(false);
  });

  test("the server-rendered app shows the maintenance screen to a signed-in non-admin", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const user = await t.signup();
    await t.call("POST", "/api/admin/maintenance", { headers: t.auth(admin.token), body: { enabled: true } });
    const page = await t.call("GET", "/dashboard", { headers: { cookie: user.cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("maintenance-screen");
    expect(page.text).toContain(BANNER);
    const adminPage = await t.call("GET", "/super-admin", { headers: { cookie: admin.cookie } });
    expect(adminPage.text).not.toContain("maintenance-screen");
    expect(adminPage.text).toContain(BANNER); // the console's own banner
  });

  test("every change is in the audit log", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    await t.call("POST", "/api/admin/maintenance", { headers: t.auth(admin.token), body: { enabled: true } });
    await t.call("POST", "/api/admin/maintenance", { headers: t.auth(admin.token), body: { enabled: false } });
    const log = await t.call("GET", "/api/admin/audit-logs", { headers: t.auth(admin.token) });
    const actions = log.json.entries.map((e: { action: string }) => e.action);
    expect(actions.slice(0, 2)).toEqual(["admin.maintenance_off", "admin.maintenance_on"]);
    expect(log.json.entries[0].actorEmail).toBe(admin.email);
  });
});
