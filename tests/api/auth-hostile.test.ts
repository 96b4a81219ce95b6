// Hostile session cases that tests/api/auth.test.ts and admin-users.test.ts don't already cover:
// an expired refresh token everywhere a cookie is accepted, a disabled user's cookie on the cookie
// routes and the socket, a demoted admin's API key, login timing for unknown vs known e-mails, and
// live sockets after logout.
import { afterEach, describe, expect, test } from "bun:test";
import { WS_SUBPROTOCOL } from "#server/live/ws";
import { REFRESH_TOKEN_TTL_SECONDS } from "#server/modules/auth/tokens";
import { makeTestApp } from "#tests/support/app";
import { openSocket, serveTestApp, type TestSocket } from "#tests/support/live-server";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function served(t: ReturnType<typeof makeTestApp>) {
  const srv = serveTestApp(t);
  cleanups.push(() => srv.stop());
  return srv;
}

function track(s: TestSocket): TestSocket {
  cleanups.push(() => s.ws.close());
  return s;
}

/** Resolves with the close event, or null if the socket is still open after `ms`. */
const closedWithin = (s: TestSocket, ms: number) => Promise.race([s.closed, Bun.sleep(ms).then(() => null)]);

const GUARD = "Hold Up There, Digital Wanderer";

describe("expired refresh token", () => {
  test("refused by refresh, SSR, the cookie-authenticated routes and the socket", async () => {
    let now = Date.now();
    const t = makeTestApp({ now: () => now });
    const srv = served(t);
    const u = await t.signup();
    expect((await t.call("GET", "/dashboard", { headers: { cookie: u.cookie } })).text).not.toContain(GUARD);
    now += (REFRESH_TOKEN_TTL_SECONDS + 60) * 1000;

    const r = await t.call("POST", "/api/auth/refresh", { headers: { cookie: u.cookie } });
    expect(r.status).toBe(401);
    expect(r.json.error).toBe("Session expired");
    expect(r.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await t.call("GET", "/dashboard", { headers: { cookie: u.cookie } })).text).toContain(GUARD);
    expect((await t.call("GET", "/api/comparisons/x/export", { headers: { cookie: u.cookie } })).status).toBe(401);
    expect((await t.call("GET", "/api/snapshots/x/screenshot", { headers: { cookie: u.cookie } })).status).toBe(401);
    expect(await track(openSocket(srv.wsUrl, { headers: { cookie: u.cookie, origin: srv.base } })).opened).toBe(false);
    // A stale cookie can't be revived by logging out with it either.
    expect((await t.call("POST", "/api/auth/logout", { headers: { cookie: u.cookie } })).status).toBe(200);
    expect((await t.call("POST", "/api/auth/refresh", { headers: { cookie: u.cookie } })).status).toBe(401);
  });

  test("a token one minute short of expiry still works, so the check is the expiry and not something else", async () => {
    let now = Date.now();
    const t = makeTestApp({ now: () => now });
    const u = await t.signup();
    now += (REFRESH_TOKEN_TTL_SECONDS - 60) * 1000;
    expect((await t.call("POST", "/api/auth/refresh", { headers: { cookie: u.cookie } })).status).toBe(200);
  });
});

describe("disabled and demoted accounts", () => {
  test("a disabled user's cookie opens no page, no download and no socket", async () => {
    const t = makeTestApp();
    const srv = served(t);
    const admin = await t.signup();
    const u = await t.signup();
    const before = track(openSocket(srv.wsUrl, { headers: { cookie: u.cookie, origin: srv.base } }));
    expect(await before.opened).toBe(true);
    await t.call("PATCH", `/api/admin/users/${u.user.id}`, { headers: t.auth(admin.token), body: { disabled: true } });
    expect((await closedWithin(before, 15_000))?.code).toBe(4001);
    expect(await track(openSocket(srv.wsUrl, { headers: { cookie: u.cookie, origin: srv.base } })).opened).toBe(false);
    expect(await track(openSocket(srv.wsUrl, { protocols: [WS_SUBPROTOCOL, `bearer.${u.token}`] })).opened).toBe(false);
    expect((await t.call("GET", "/dashboard", { headers: { cookie: u.cookie } })).text).toContain(GUARD);
    expect((await t.call("GET", "/api/comparisons/x/export", { headers: { cookie: u.cookie } })).status).toBe(401);
  });

  test("a demoted admin's API key loses admin routes on the very next request", async () => {
    const t = makeTestApp();
    const root = await t.signup();
    const other = await t.signup();
    await t.call("PATCH", `/api/admin/users/${other.user.id}`, { headers: t.auth(root.token), body: { role: "admin" } });
    const login = await t.call("POST", "/api/auth/login", { body: { email: other.email, password: other.password } });
    const key = (await t.call("POST", "/api/admin/api-keys", { headers: t.auth(login.json.accessToken), body: { name: "ci" } })).json
      .key as string;
    expect((await t.call("GET", "/api/admin/users", { headers: t.auth(key) })).status).toBe(200);

    await t.call("PATCH", `/api/admin/users/${other.user.id}`, { headers: t.auth(root.token), body: { role: "user" } });
    const after = await t.call("GET", "/api/admin/users", { headers: t.auth(key) });
    expect(after.status).toBe(403);
    expect(after.json.error).toBeString();
    for (const [method, path, body] of [
      ["POST", "/api/admin/maintenance", { enabled: true }],
      ["POST", "/api/admin/api-keys", { name: "sneaky" }],
      ["POST", "/api/system/start", {}],
      ["PUT", "/api/trends/settings", {}],
    ] as const)
      expect((await t.call(method, path, { headers: t.auth(key), body })).status).toBe(403);
    // The key still identifies the (now ordinary) user for ordinary routes.
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(key) })).json.user.role).toBe("user");
  });
});

describe("login timing", () => {
  test("an unknown e-mail takes about as long as a wrong password (no account enumeration by time)", async () => {
    const t = makeTestApp();
    const u = await t.signup();
    const time = async (email: string) => {
      const start = Bun.nanoseconds();
      const r = await t.call("POST", "/api/auth/login", { body: { email, password: "not-the-password" } });
      expect(r.status).toBe(401);
      expect(r.json.error).toBe("Invalid email or password");
      return Bun.nanoseconds() - start;
    };
    await time(u.email); // warm-up: the dummy hash and the first verify
    await time("warm-up@example.com");
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so load on the machine hits both sides alike.
    for (let i = 0; i < 10; i++) {
      known.push(await time(u.email));
      unknown.push(await time(`nobody-${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  }, 120_000); // 22 password hashes: about a second each on a busy machine
});

describe("live sockets after logout", () => {
  test("a socket opened with the session cookie is closed by that session's logout and can't reopen", async () => {
    const t = makeTestApp();
    const srv = served(t);
    await t.signup(); // admin
    const u = await t.signup();
    const s = track(openSocket(srv.wsUrl, { headers: { cookie: u.cookie, origin: srv.base } }));
    expect(await s.opened).toBe(true);
    const out = await t.call("POST", "/api/auth/logout", { headers: { cookie: u.cookie } });
    expect(out.status).toBe(200);
    expect(await closedWithin(s, 15_000)).toEqual({ code: 4001, reason: "Signed out" });
    expect(await track(openSocket(srv.wsUrl, { headers: { cookie: u.cookie, origin: srv.base } })).opened).toBe(false);
  });

  test("the same session's token socket closes too (also after a refresh); another device's socket stays", async () => {
    const t = makeTestApp();
    const srv = served(t);
    await t.signup(); // admin
    const u = await t.signup();
    // The session rotates its cookie once; its sockets still belong to it.
    const refreshed = await t.call("POST", "/api/auth/refresh", { headers: { cookie: u.cookie } });
    const cookie = (refreshed.headers.get("set-cookie") ?? "").split(";")[0]!;
    const byToken = track(openSocket(srv.wsUrl, { protocols: [WS_SUBPROTOCOL, `bearer.${refreshed.json.accessToken}`] }));
    const byOldToken = track(openSocket(srv.wsUrl, { protocols: [WS_SUBPROTOCOL, `bearer.${u.token}`] }));
    const other = await t.call("POST", "/api/auth/login", { body: { email: u.email, password: u.password } });
    const otherDevice = track(openSocket(srv.wsUrl, { protocols: [WS_SUBPROTOCOL, `bearer.${other.json.accessToken}`] }));
    expect(await byToken.opened).toBe(true);
    expect(await byOldToken.opened).toBe(true);
    expect(await otherDevice.opened).toBe(true);

    await t.call("POST", "/api/auth/logout", { headers: { cookie } });
    expect((await closedWithin(byToken, 15_000))?.code).toBe(4001);
    expect((await closedWithin(byOldToken, 15_000))?.code).toBe(4001);
    expect(await closedWithin(otherDevice, 300)).toBeNull();
    t.services.live.publish({ type: "ALERT", payload: { n: 1 } }, { kind: "user", userId: u.user.id });
    const end = Date.now() + 15_000;
    while (!otherDevice.messages.length && Date.now() < end) await Bun.sleep(10);
    expect(otherDevice.messages.map((m) => m.type)).toEqual(["ALERT"]);
  });
});
