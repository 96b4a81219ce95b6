import { describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { JUST_ROTATED_MESSAGE, ROTATION_GRACE_MS } from "#server/modules/auth/service";
import { makeTestApp } from "#tests/support/app";

const cookieOf = (setCookie: string | null) => (setCookie ?? "").split(";")[0]!;

describe("signup", () => {
  test("first account is admin, later ones are users; e-mail trimmed and lower-cased", async () => {
    const t = makeTestApp();
    const a = await t.call("POST", "/api/auth/signup", { body: { email: "  First@Example.com ", password: "password-1" } });
    expect(a.status).toBe(201);
    expect(a.json.user).toMatchObject({ email: "first@example.com", role: "admin", username: null });
    expect(typeof a.json.accessToken).toBe("string");
    const b = await t.call("POST", "/api/auth/signup", {
      body: { email: "second@example.com", password: "password-2", username: "  neo " },
    });
    expect(b.json.user).toMatchObject({ role: "user", username: "neo" });
  });

  test("ADMIN_EMAILS names more admins", async () => {
    const t = makeTestApp({ env: { ADMIN_EMAILS: "boss@example.com, other@example.com" } });
    await t.signup("someone@example.com");
    const r = await t.call("POST", "/api/auth/signup", { body: { email: "Boss@example.com", password: "password-1" } });
    expect(r.json.user.role).toBe("admin");
  });

  test("empty username is omitted", async () => {
    const t = makeTestApp();
    const r = await t.call("POST", "/api/auth/signup", { body: { email: "x@example.com", password: "password-1", username: "   " } });
    expect(r.json.user.username).toBeNull();
  });

  test("refresh cookie is HttpOnly, SameSite=Strict, not Secure over http, Secure over https", async () => {
    const t = makeTestApp();
    const r = await t.call("POST", "/api/auth/signup", { body: { email: "c@example.com", password: "password-1" } });
    const sc = r.headers.get("set-cookie")!;
    expect(sc).toContain("HttpOnly");
    expect(sc).toContain("SameSite=Strict");
    expect(sc).not.toContain("Secure");
    const s = await t.app.handle(
      new Request("https://localhost/api/auth/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "d@example.com", password: "password-1" }),
      }),
    );
    expect(s.headers.get("set-cookie")).toContain("Secure");
  });

  test.each([
    [{ password: "password-1" }, "Email is required"],
    [{ email: "not-an-email", password: "password-1" }, "Please enter a valid email address"],
    [{ email: "a@example.com", password: "short" }, "Password must be at least 8 characters"],
    [{ email: "a@example.com" }, "Password is required"],
  ])("rejects %p with a 400", async (body, message) => {
    const t = makeTestApp();
    const r = await t.call("POST", "/api/auth/signup", { body });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe(message);
    expect(Array.isArray(r.json.details)).toBe(true);
  });

  test("duplicate e-mail is 409", async () => {
    const t = makeTestApp();
    await t.signup("dup@example.com");
    const r = await t.call("POST", "/api/auth/signup", { body: { email: "DUP@example.com", password: "password-1" } });
    expect(r.status).toBe(409);
  });

  test("passwords are stored as argon2id, never in clear", async () => {
    const t = makeTestApp();
    await t.signup("hash@example.com", "my-secret-password");
    const row = t.db.query<{ password_hash: string }, []>("SELECT password_hash FROM users").get()!;
    expect(row.password_hash.startsWith("$argon2id$")).toBe(true);
    expect(row.password_hash).not.toContain("my-secret-password");
  });
});

describe("login", () => {
  test("same answer for unknown e-mail and wrong password", async () => {
    const t = makeTestApp();
    await t.signup("real@example.com", "right-password");
    const unknown = await t.call("POST", "/api/auth/login", { body: { email: "ghost@example.com", password: "whatever-1" } });
    const wrong = await t.call("POST", "/api/auth/login", { body: { email: "real@example.com", password: "wrong-password" } });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.json).toEqual(wrong.json);
  });

  test("good credentials give a token, the user and a refresh cookie", async () => {
    const t = makeTestApp();
    await t.signup("ok@example.com", "right-password");
    const r = await t.call("POST", "/api/auth/login", { body: { email: " OK@example.com", password: "right-password" } });
    expect(r.status).toBe(200);
    expect(r.json.user.email).toBe("ok@example.com");
    expect(r.headers.get("set-cookie")).toContain("di_refresh=");
    const me = await t.call("GET", "/api/auth/me", { headers: t.auth(r.json.accessToken) });
    expect(me.json.user.email).toBe("ok@example.com");
  });

  test("rate limited per account with Retry-After", async () => {
    const t = makeTestApp({ limits: { perIpPerMinute: 1000, perAccountPerMinute: 3 } });
    await t.signup("victim@example.com");
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await t.call("POST", "/api/auth/login", { body: { email: "victim@example.com", password: "nope-nope-1" } });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses[3]).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.json.error).toBeString();
  });

  test("rate limited per IP across accounts", async () => {
    const t = makeTestApp({ limits: { perIpPerMinute: 4, perAccountPerMinute: 100 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await t.call("POST", "/api/auth/login", { body: { email: `n${i}@example.com`, password: "nope-nope-1" } });
      statuses.push(r.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBe(2);
  });

  test("signup is rate limited per IP", async () => {
    const t = makeTestApp({ limits: { perIpPerMinute: 2, perAccountPerMinute: 100 } });
    const s: number[] = [];
    for (let i = 0; i < 3; i++)
      s.push((await t.call("POST", "/api/auth/signup", { body: { email: `s${i}@example.com`, password: "password-1" } })).status);
    expect(s).toEqual([201, 201, 429]);
  });
});

describe("refresh tokens", () => {
  test("rotate on every refresh; the old one stops working and replay revokes the family", async () => {
    let clock = Date.parse("2026-11-22T08:00:00Z");
    const t = makeTestApp({ now: () => clock });
    const { cookie } = await t.signup();
    const r1 = await t.call("POST", "/api/auth/refresh", { headers: { cookie } });
    expect(r1.status).toBe(200);
    const cookie2 = cookieOf(r1.headers.get("set-cookie"));
    expect(cookie2).not.toBe(cookie);
    expect(typeof r1.json.accessToken).toBe("string");

    // Seconds later the old cookie is a browser still waiting for the new one: refused with 409
    // "try again", no tokens, cookie left alone, and the session goes on.
    clock += 3_000;
    const early = await t.call("POST", "/api/auth/refresh", { headers: { cookie } });
    expect(early.status).toBe(409);
    expect(early.json).toEqual({ error: JUST_ROTATED_MESSAGE });
    expect(early.headers.get("set-cookie")).toBeNull();

    // Past the grace it is a replay: refused, and the family (including cookie2) is revoked.
    clock += ROTATION_GRACE_MS;
    const replay = await t.call("POST", "/api/auth/refresh", { headers: { cookie } });
    expect(replay.status).toBe(401);
    expect(replay.headers.get("set-cookie")).toContain("Max-Age=0");
    const after = await t.call("POST", "/api/auth/refresh", { headers: { cookie: cookie2 } });
    expect(after.status).toBe(401);
  });

  test("within the grace, a replay of a session already ended is refused outright", async () => {
    const t = makeTestApp();
    const { cookie } = await t.signup();
    const r1 = await t.call("POST", "/api/auth/refresh", { headers: { cookie } });
    await t.call("POST", "/api/auth/logout", { headers: { cookie: cookieOf(r1.headers.get("set-cookie")) } });
    expect((await t.call("POST", "/api/auth/refresh", { headers: { cookie } })).status).toBe(401);
  });

  test("exactly one of 20 parallel refreshes with one token succeeds", async () => {
    const t = makeTestApp();
    const { cookie } = await t.signup();
    const results = await Promise.all(Array.from({ length: 20 }, () => t.call("POST", "/api/auth/refresh", { headers: { cookie } })));
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    // The other 19 get no tokens; as the same browser's parallel calls they are told to try again
    // (with the new cookie), and the winner's session lives on.
    expect(results.filter((r) => r.status === 409 && r.json.error === JUST_ROTATED_MESSAGE).length).toBe(19);
    const winner = cookieOf(results.find((r) => r.status === 200)!.headers.get("set-cookie"));
    expect((await t.call("POST", "/api/auth/refresh", { headers: { cookie: winner } })).status).toBe(200);
  });

  test("the refresh token is stored only as a hash", async () => {
    const t = makeTestApp();
    const { cookie } = await t.signup();
    const raw = decodeURIComponent(cookie.split("=")[1]!);
    const rows = t.db.query<{ token_hash: string }, []>("SELECT token_hash FROM refresh_tokens").all();
    expect(rows.length).toBe(1);
    expect(rows[0]!.token_hash).not.toBe(raw);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("cross-site refresh is refused", async () => {
    const t = makeTestApp();
    const { cookie } = await t.signup();
    const bySite = await t.call("POST", "/api/auth/refresh", { headers: { cookie, "sec-fetch-site": "cross-site" } });
    expect(bySite.status).toBe(403);
    const byOrigin = await t.call("POST", "/api/auth/refresh", { headers: { cookie, origin: "https://evil.example" } });
    expect(byOrigin.status).toBe(403);
    const same = await t.call("POST", "/api/auth/refresh", {
      headers: { cookie, origin: "http://localhost", "sec-fetch-site": "same-origin" },
    });
    expect(same.status).toBe(200);
  });

  test("logout revokes the session and clears the cookie", async () => {
    const t = makeTestApp();
    const { cookie } = await t.signup();
    const out = await t.call("POST", "/api/auth/logout", { headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const r = await t.call("POST", "/api/auth/refresh", { headers: { cookie } });
    expect(r.status).toBe(401);
  });

  test("logout ends that session's access tokens at once; another session's keep working", async () => {
    const t = makeTestApp();
    const u = await t.signup();
    const other = await t.call("POST", "/api/auth/login", { body: { email: u.email, password: u.password } });
    const me = (token: string) => t.call("GET", "/api/auth/me", { headers: { authorization: `Bearer ${token}` } });
    expect((await me(u.token)).status).toBe(200);
    // A refresh rotates the cookie but stays the same session: its new token dies with it too.
    const refreshed = await t.call("POST", "/api/auth/refresh", { headers: { cookie: u.cookie } });
    const cookie = (refreshed.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect((await me(refreshed.json.accessToken)).status).toBe(200);

    expect((await t.call("POST", "/api/auth/logout", { headers: { cookie } })).status).toBe(200);
    for (const token of [u.token, refreshed.json.accessToken]) {
      const r = await me(token);
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ error: expect.any(String) });
    }
    expect((await me(other.json.accessToken)).status).toBe(200);
  });

  test("logout without a session still answers OK", async () => {
    const t = makeTestApp();
    expect((await t.call("POST", "/api/auth/logout")).status).toBe(200);
  });

  test("no cookie is a 401", async () => {
    const t = makeTestApp();
    expect((await t.call("POST", "/api/auth/refresh")).status).toBe(401);
  });
});

describe("access tokens", () => {
  test("/me needs a valid bearer token", async () => {
    const t = makeTestApp();
    expect((await t.call("GET", "/api/auth/me")).status).toBe(401);
    expect((await t.call("GET", "/api/auth/me", { headers: { authorization: "Bearer nonsense" } })).status).toBe(401);
  });

  test("alg none is refused", async () => {
    const t = makeTestApp();
    const { user } = await t.signup();
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const forged = `${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: user.id, role: "admin", ver: 0, iss: "design-intel", exp: 9999999999 })}.`;
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(forged) })).status).toBe(401);
  });

  test("a token signed with another secret is refused", async () => {
    const t = makeTestApp();
    const { user } = await t.signup();
    const other = await new SignJWT({ role: "admin", ver: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuer("design-intel")
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode("some-other-secret-some-other-secret-xx"));
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(other) })).status).toBe(401);
  });

  test("expires after about 15 minutes", async () => {
    let now = Date.now();
    const t = makeTestApp({ now: () => now });
    const { token } = await t.signup();
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(token) })).status).toBe(200);
    now += 16 * 60 * 1000;
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(token) })).status).toBe(401);
  });
});

describe("request hygiene", () => {
  test("malformed JSON is 400", async () => {
    const t = makeTestApp();
    const r = await t.call("POST", "/api/auth/login", { raw: "{not json", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("Malformed JSON body");
  });

  test("bodies over 1 MB are 413", async () => {
    const t = makeTestApp();
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(1024 * 1024 + 10) });
    const r = await t.call("POST", "/api/auth/signup", { raw: big, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expect(r.json.error).toContain("1 MB");
  });

  test("unknown API paths are JSON 404", async () => {
    const t = makeTestApp();
    const r = await t.call("GET", "/api/does-not-exist");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toContain("application/json");
    expect(r.json.error).toBeString();
    const p = await t.call("POST", "/api/does-not-exist", { body: {} });
    expect(p.status).toBe(404);
  });

  test("wrong types never 500", async () => {
    const t = makeTestApp();
    for (const body of [[], "text", 42, null, { email: 5, password: {} }]) {
      const r = await t.call("POST", "/api/auth/login", { raw: JSON.stringify(body), headers: { "content-type": "application/json" } });
      expect(r.status).toBe(400);
    }
    const plain = await t.call("POST", "/api/auth/login", { raw: "email=a", headers: { "content-type": "text/plain" } });
    expect(plain.status).toBe(400);
  });

  test("security headers on API answers and errors: nothing loads, nothing frames, nothing sniffs", async () => {
    const t = makeTestApp();
    for (const r of [await t.call("GET", "/api/health"), await t.call("GET", "/api/nope")]) {
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(r.headers.get("x-frame-options")).toBe("DENY");
    }
    // The API reference is a document: it gets a document's policy, which lets its own script run.
    const docs = await t.call("GET", "/api/docs");
    expect(docs.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(docs.headers.get("referrer-policy")).toBeTruthy();
  });
});

describe("waitlist", () => {
  test("joins, trims, and a repeat succeeds without a second row", async () => {
    const t = makeTestApp();
    const a = await t.call("POST", "/api/beta-signups", { body: { email: "  Fan@Example.com ", source: "homepage" } });
    expect(a.status).toBe(201);
    const b = await t.call("POST", "/api/beta-signups", { body: { email: "fan@example.com", source: "header" } });
    expect(b.status).toBe(201);
    expect(await t.services.waitlist.count()).toBe(1);
  });

  test.each(["homepage", "cta", "pricing-professional", "pricing-cta", "features-hero", "features-cta", "header"])(
    "accepts source %s",
    async (source) => {
      const t = makeTestApp();
      expect((await t.call("POST", "/api/beta-signups", { body: { email: `${source}@example.com`, source } })).status).toBe(201);
    },
  );

  test("rejects bad e-mail and unknown source", async () => {
    const t = makeTestApp();
    expect((await t.call("POST", "/api/beta-signups", { body: { email: "nope", source: "homepage" } })).json.error).toBe(
      "Please enter a valid email address",
    );
    expect((await t.call("POST", "/api/beta-signups", { body: { email: "   ", source: "homepage" } })).status).toBe(400);
    expect((await t.call("POST", "/api/beta-signups", { body: { email: "a@example.com", source: "spam" } })).status).toBe(400);
  });

  test("rate limited per IP", async () => {
    const t = makeTestApp({ limits: { perIpPerMinute: 2, perAccountPerMinute: 100 } });
    const s: number[] = [];
    for (let i = 0; i < 3; i++)
      s.push((await t.call("POST", "/api/beta-signups", { body: { email: `w${i}@example.com`, source: "cta" } })).status);
    expect(s).toEqual([201, 201, 429]);
  });
});
