// One JSON line per request: level, time, msg, request id, method, the route's pattern, status,
// duration and the user when known; secrets never appear, whatever the request carried.
import { describe, expect, test } from "bun:test";
import { makeTestApp } from "#tests/support/app";

describe("request log", () => {
  test("one line per request, with the route pattern rather than the raw path, and the user", async () => {
    const t = makeTestApp();
    const { token, user } = await t.signup();
    const created = await t.call("POST", "/api/comparisons", { headers: t.auth(token), body: { name: "Rivals" } });
    await t.logs.requests(2);
    t.logs.clear();

    const got = await t.call("GET", `/api/comparisons/${created.json.id}?utm=x`, { headers: t.auth(token) });
    expect(got.status).toBe(200);
    const [line] = await t.logs.requests(1);
    // Exactly one: nothing else arrives once the next request's line is in.
    await t.call("GET", "/api/health/live");
    expect((await t.logs.requests(2)).map((l) => l.route)).toEqual(["/api/comparisons/:id", "/api/health/live"]);
    if (!line) throw new Error("no line");
    expect(line).toEqual({
      level: "info",
      time: expect.any(String),
      msg: "request",
      reqId: got.headers.get("x-request-id"),
      method: "GET",
      route: "/api/comparisons/:id",
      status: 200,
      ms: expect.any(Number),
      userId: user.id,
    });
    expect(new Date(line.time).toISOString()).toBe(line.time);
    expect(line.ms).toBeGreaterThanOrEqual(0);
    // The comparison's id lives in the path; only the pattern is logged.
    expect(t.logs.text()).not.toContain(created.json.id);
  });

  test("errors get their real status, and an unmatched path is not echoed", async () => {
    const t = makeTestApp();
    expect((await t.call("GET", "/api/comparisons")).status).toBe(401);
    await t.logs.requests(1);
    expect((await t.call("GET", "/api/no-such-thing/abc123")).status).toBe(404);
    await t.logs.requests(2);
    expect((await t.call("POST", "/api/comparisons", { raw: "{nope", headers: { "content-type": "application/json" } })).status).toBe(400);
    const lines = await t.logs.requests(3);
    expect(lines.map((l) => [l.method, l.route, l.status, l.userId])).toEqual([
      ["GET", "/api/comparisons", 401, undefined],
      ["GET", expect.anything(), 404, undefined],
      ["POST", "/api/comparisons", 400, undefined],
    ]);
    expect(t.logs.text()).not.toContain("abc123");
  });

  test("an unhandled error is a 500 logged at error level, with the failure beside it", async () => {
    const t = makeTestApp();
    const { token } = await t.signup();
    t.services.comparisons.list = () => {
      throw new Error("disk on fire");
    };
    await t.logs.requests(1);
    t.logs.clear();
    const r = await t.call("GET", "/api/comparisons", { headers: t.auth(token) });
    expect(r.status).toBe(500);
    await t.logs.requests(1);
    const [failure, request] = t.logs.lines;
    expect(failure).toMatchObject({ level: "error", msg: "unhandled error on GET /api/comparisons", err: { message: "disk on fire" } });
    expect(request).toMatchObject({
      level: "error",
      msg: "request",
      status: 500,
      route: "/api/comparisons",
      reqId: r.headers.get("x-request-id"),
    });
  });

  test("X-Request-Id: a sane incoming id is kept and echoed; anything else is replaced", async () => {
    const t = makeTestApp();
    const kept = await t.call("GET", "/api/health/live", { headers: { "x-request-id": "lb-7f3a:42" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a:42");
    for (const bad of ["x".repeat(129), "has space", 'quote"d', "new\nline", "<script>"]) {
      let r;
      try {
        r = await t.call("GET", "/api/health/live", { headers: { "x-request-id": bad } });
      } catch {
        continue; // a header value fetch itself refuses (the newline) never reaches the server
      }
      const id = r.headers.get("x-request-id")!;
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const generated = await t.call("GET", "/api/health/live");
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await t.logs.until((l) => l.reqId === generated.headers.get("x-request-id"));
    const ids = t.logs.lines.filter((l) => l.msg === "request").map((l) => l.reqId);
    expect(ids[0]).toBe("lb-7f3a:42");
    expect(ids.at(-1)).toBe(generated.headers.get("x-request-id"));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("passwords, tokens, cookies and API keys never reach the log", async () => {
    const t = makeTestApp({ env: { ADMIN_EMAILS: "root@example.com" } });
    const password = "Sup3r-Secret-Passw0rd!";
    const admin = await t.signup("root@example.com", password);
    const key = (await t.call("POST", "/api/admin/api-keys", { headers: t.auth(admin.token), body: { name: "ci" } })).json.key as string;
    expect(key).toBeString();

    const login = await t.call("POST", "/api/auth/login", {
      body: { email: "root@example.com", password },
      headers: { authorization: "Bearer some-stale-token-value", cookie: `${admin.cookie}; other=cookie-value-9` },
    });
    expect(login.status).toBe(200);
    const wrong = await t.call("POST", "/api/auth/login", { body: { email: "root@example.com", password: "wrong-password-xyz" } });
    expect(wrong.status).toBe(401);
    const refreshed = await t.call("POST", "/api/auth/refresh", { headers: { cookie: login.headers.get("set-cookie")!.split(";")[0]! } });
    expect(refreshed.status).toBe(200);
    expect((await t.call("GET", "/api/comparisons", { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

    const lines = await t.logs.requests(6);
    const text = t.logs.text();
    const secrets = [
      password,
      "wrong-password-xyz",
      admin.token,
      login.json.accessToken,
      refreshed.json.accessToken,
      admin.cookie.split("=")[1]!,
      login.headers.get("set-cookie")!.split(";")[0]!.split("=")[1]!,
      "some-stale-token-value",
      "cookie-value-9",
      key,
      "root@example.com",
    ];
    for (const s of secrets) expect(text).not.toContain(s);
    // ...while the lines themselves are there: the API key's user is named by id.
    const routes = lines.map((l) => `${l.method} ${l.route} ${l.status}`);
    expect(routes).toContain("POST /api/auth/login 200");
    expect(routes).toContain("POST /api/auth/login 401");
    expect(lines.find((l) => l.route === "/api/comparisons")).toMatchObject({ status: 200, userId: admin.user.id });
  });

  test("LOG_LEVEL=warn keeps failures and drops the routine request lines", async () => {
    const t = makeTestApp({ env: { LOG_LEVEL: "warn" } });
    const { token } = await t.signup();
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(token) })).status).toBe(200);
    t.services.comparisons.list = () => {
      throw new Error("boom");
    };
    expect((await t.call("GET", "/api/comparisons", { headers: t.auth(token) })).status).toBe(500);
    // The 500's own line arriving proves the earlier 2xx lines (written first) were dropped.
    await t.logs.requests(1);
    expect(t.logs.lines.map((l) => [l.level, l.msg])).toEqual([
      ["error", "unhandled error on GET /api/comparisons"],
      ["error", "request"],
    ]);
  });
});
