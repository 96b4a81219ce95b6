import { describe, expect, test } from "bun:test";
import type { LiveSocket } from "#server/live/hub";
import { makeTestApp } from "#tests/support/app";

function socketOf(userId: string, role: "user" | "admin") {
  const s = { userId, role, closedWith: null as string | null } as LiveSocket & { closedWith: string | null };
  s.send = () => {};
  s.close = (_code?: number, reason?: string) => void (s.closedWith = reason ?? "");
  return s;
}

const refresh = (t: ReturnType<typeof makeTestApp>, cookie: string) => t.call("POST", "/api/auth/refresh", { headers: { cookie } });

describe("user management", () => {
  test("disabling a user cuts their open session on the next request: token, refresh cookie, sockets, keys", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const user = await t.signup();
    const key = (await t.call("POST", "/api/admin/api-keys", { headers: t.auth(admin.token), body: { name: "x" } })).json.key;
    // The user is still a user, so give them a key the direct way to prove keys die too.
    const userKey = (await t.services.apiKeys.create({ id: user.user.id, email: user.email }, user.user.id, { name: "ci" })).key;
    const socket = socketOf(user.user.id, "user");
    t.services.live.add(socket);

    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(user.token) })).status).toBe(200);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(userKey) })).status).toBe(200);

    const r = await t.call("PATCH", `/api/admin/users/${user.user.id}`, { headers: t.auth(admin.token), body: { disabled: true } });
    expect(r.status).toBe(200);
    expect(r.json.user).toMatchObject({ id: user.user.id, disabled: true, role: "user" });

    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(user.token) })).status).toBe(401);
    expect((await refresh(t, user.cookie)).status).toBe(401);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(userKey) })).status).toBe(401);
    expect(socket.closedWith).toBe("Account disabled");
    const login = await t.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(401);
    // The admin's own key is untouched.
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(key) })).status).toBe(200);

    // Enabling lets them sign in again (old sessions stay dead).
    await t.call("PATCH", `/api/admin/users/${user.user.id}`, { headers: t.auth(admin.token), body: { disabled: false } });
    expect((await t.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })).status).toBe(200);
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(user.token) })).status).toBe(401);
  });

  test("promote gives admin on the next request; demote takes it away and ends sessions", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const other = await t.signup();
    expect((await t.call("GET", "/api/admin/users", { headers: t.auth(other.token) })).status).toBe(403);

    await t.call("PATCH", `/api/admin/users/${other.user.id}`, { headers: t.auth(admin.token), body: { role: "admin" } });
    expect((await t.call("GET", "/api/admin/users", { headers: t.auth(other.token) })).status).toBe(200);

    const socket = socketOf(other.user.id, "admin");
    t.services.live.add(socket);
    const d = await t.call("PATCH", `/api/admin/users/${other.user.id}`, { headers: t.auth(admin.token), body: { role: "user" } });
    expect(d.json.user.role).toBe("user");
    expect((await t.call("GET", "/api/admin/users", { headers: t.auth(other.token) })).status).toBe(401);
    expect((await refresh(t, other.cookie)).status).toBe(401);
    expect(socket.closedWith).toBe("Role changed");
    const again = await t.call("POST", "/api/auth/login", { body: { email: other.email, password: other.password } });
    expect((await t.call("GET", "/api/admin/users", { headers: t.auth(again.json.accessToken) })).status).toBe(403);
  });

  test("admins cannot lock themselves out and the last admin stays", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    for (const body of [{ disabled: true }, { role: "user" }]) {
      const r = await t.call("PATCH", `/api/admin/users/${admin.user.id}`, { headers: t.auth(admin.token), body });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("You can't disable or demote your own account");
    }
    // Two admins demoting each other at once: both passed the guard, so the service is the last line.
    const second = await t.signup();
    await t.call("PATCH", `/api/admin/users/${second.user.id}`, { headers: t.auth(admin.token), body: { role: "admin" } });
    await t.services.users.update({ id: admin.user.id, email: admin.email }, second.user.id, { role: "user" });
    expect(() => t.services.users.update({ id: second.user.id, email: second.email }, admin.user.id, { role: "user" })).toThrow(
      "At least one active admin must remain",
    );
    const list = await t.call("GET", "/api/admin/users", { headers: t.auth(admin.token) });
    expect(list.json.users.filter((u: { role: string }) => u.role === "admin").map((u: { id: string }) => u.id)).toEqual([admin.user.id]);
  });

  test("bad input is 400, unknown users 404", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const user = await t.signup();
    const h = t.auth(admin.token);
    expect((await t.call("PATCH", `/api/admin/users/${user.user.id}`, { headers: h, body: {} })).json.error).toBe(
      "Nothing to change: send disabled or role",
    );
    expect((await t.call("PATCH", `/api/admin/users/${user.user.id}`, { headers: h, body: { disabled: "yes" } })).status).toBe(400);
    expect((await t.call("PATCH", `/api/admin/users/${user.user.id}`, { headers: h, body: { role: "root" } })).status).toBe(400);
    expect((await t.call("PATCH", "/api/admin/users/nobody", { headers: h, body: { disabled: true } })).status).toBe(404);
    expect((await t.call("GET", "/api/admin/users?pageSize=1000", { headers: h })).status).toBe(400);
  });

  test("lists and searches users, with last sign-in from the audit log; LIKE wildcards are literal", async () => {
    const t = makeTestApp();
    const admin = await t.signup("boss@example.com");
    await t.signup("alice@example.com");
    await t.signup("bob_smith@example.com");
    await t.call("POST", "/api/auth/login", { body: { email: "alice@example.com", password: "correct-horse-battery" } });
    const h = t.auth(admin.token);
    const all = await t.call("GET", "/api/admin/users?pageSize=2", { headers: h });
    expect(all.json.total).toBe(3);
    expect(all.json.users).toHaveLength(2);
    const alice = await t.call("GET", "/api/admin/users?q=alice", { headers: h });
    expect(alice.json.users.map((u: { email: string }) => u.email)).toEqual(["alice@example.com"]);
    expect(alice.json.users[0].lastSignInAt).toBeString();
    expect((await t.call("GET", "/api/admin/users?q=_", { headers: h })).json.users.map((u: { email: string }) => u.email)).toEqual([
      "bob_smith@example.com",
    ]);
  });
});

describe("audit log", () => {
  test("records sign-ups, sign-ins and failed sign-ins with who, when and from where, newest first, paginated", async () => {
    // Behind a trusted proxy, so its X-Forwarded-Proto counts for the report's HTTPS check below.
    const t = makeTestApp({ env: { TRUST_PROXY: "1" } });
    const admin = await t.signup("root@example.com");
    await t.call("POST", "/api/auth/login", {
      body: { email: "root@example.com", password: "wrong-password" },
      headers: { "user-agent": "curl/8" },
    });
    await t.call("POST", "/api/auth/login", { body: { email: "root@example.com", password: "correct-horse-battery" } });
    const h = t.auth(admin.token);
    const page = await t.call("GET", "/api/admin/audit-logs?pageSize=2", { headers: h });
    expect(page.json.total).toBe(3);
    expect(page.json.entries.map((e: { action: string }) => e.action)).toEqual(["auth.sign_in", "auth.sign_in_failed"]);
    const failed = page.json.entries[1];
    expect(failed).toMatchObject({ actorId: null, actorEmail: "root@example.com", ip: "local", userAgent: "curl/8" });
    expect(Date.parse(failed.createdAt)).not.toBeNaN();
    const second = await t.call("GET", "/api/admin/audit-logs?pageSize=2&page=2", { headers: h });
    expect(second.json.entries.map((e: { action: string }) => e.action)).toEqual(["auth.sign_up"]);
    const onlyFailed = await t.call("GET", "/api/admin/audit-logs?action=auth.sign_in_failed", { headers: h });
    expect(onlyFailed.json.total).toBe(1);
    expect((await t.call("GET", "/api/admin/audit-logs?action=nope", { headers: h })).status).toBe(400);

    const report = await t.call("GET", "/api/admin/security-report", { headers: h });
    expect(report.json).toMatchObject({ users: 1, admins: 1, failedSignIns24h: 1, activeApiKeys: 0, https: false, secureCookies: false });
    const viaHttps = await t.call("GET", "/api/admin/security-report", { headers: { ...h, "x-forwarded-proto": "https" } });
    expect(viaHttps.json.secureCookies).toBe(true);
  });
});
