// Single sign-on against a real OpenID provider (oidc-provider) on 127.0.0.1: the app's whole flow,
// discovery, PKCE, state, nonce and the ID token checks included (docs/security.md, "Single sign-on").
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pendingSignIns, OIDC_COOKIE } from "#server/modules/auth/oidc/state-cookie";
import { makeTestApp } from "#tests/support/app";
import { startProvider, signInAtProvider, TEST_CLIENT, type TestProvider } from "#tests/support/oidc-provider";

const REDIRECT = "http://localhost/api/auth/oidc/callback";
const SECRET = new TextEncoder().encode("test-secret-test-secret-test-secret-1234");
let idp: TestProvider;
let other: TestProvider;

beforeAll(async () => {
  idp = await startProvider(REDIRECT);
  other = await startProvider(REDIRECT);
});
afterAll(async () => {
  await idp?.close();
  await other?.close();
});

const ssoEnv = (extra: Record<string, string> = {}) => ({
  OIDC_ISSUER: idp.issuer,
  OIDC_CLIENT_ID: TEST_CLIENT.id,
  OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  OIDC_NAME: "Test IdP",
  ...extra,
});
type TestApp = ReturnType<typeof makeTestApp>;
const cookieValue = (res: { headers: Headers }, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** GET /start: the provider's authorization URL and the pending sign-in cookie. */
async function start(t: TestApp) {
  const r = await t.app.handle(new Request("http://localhost/api/auth/oidc/start"));
  expect(r.status).toBe(302);
  return { authUrl: r.headers.get("location")!, pending: cookieValue(r, OIDC_COOKIE)!, res: r };
}
async function callback(t: TestApp, url: URL | string, pending: string | undefined) {
  const u = new URL(url);
  const headers: Record<string, string> = pending ? { cookie: `${OIDC_COOKIE}=${pending}` } : {};
  return t.app.handle(new Request(`http://localhost${u.pathname}${u.search}`, { headers }));
}
/** One whole sign-in as `account`; the callback's answer. */
async function signIn(t: TestApp, account: Parameters<TestProvider["signInAs"]>[0], at: TestProvider = idp) {
  at.signInAs(account);
  const s = await start(t);
  return callback(t, await signInAtProvider(s.authUrl, REDIRECT), s.pending);
}
const errorOf = (r: Response) =>
  r.status === 302 ? new URL(r.headers.get("location")!, "http://localhost").searchParams.get("error") : `status ${r.status}`;
/** Signed in: a same-origin page forwards to the app, so the Strict refresh cookie goes with that navigation. */
const forwardsToApp = (r: Response) =>
  r.status === 200 && (r.headers.get("content-type") ?? "").startsWith("text/html") && r.headers.get("cache-control") === "no-store";
const userCount = (t: TestApp) => t.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM users").get()!.n;

describe("OIDC sign-in", () => {
  test("start: PKCE S256, state and nonce, and a 10-minute HttpOnly SameSite=Lax cookie scoped to the flow", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    const { authUrl, res } = await start(t);
    const u = new URL(authUrl);
    expect(u.origin).toBe(idp.issuer);
    expect(u.searchParams.get("code_challenge_method")).toBe("S256");
    expect(u.searchParams.get("code_challenge")).toBeTruthy();
    expect(u.searchParams.get("state")).toBeTruthy();
    expect(u.searchParams.get("nonce")).toBeTruthy();
    expect(u.searchParams.get("redirect_uri")).toBe(REDIRECT);
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${OIDC_COOKIE}=`))!;
    expect(set).toContain("HttpOnly");
    expect(set).toContain("SameSite=Lax");
    expect(set).toContain("Max-Age=600");
    expect(set).toContain("Path=/api/auth/oidc");
  });

  test("first sign-in provisions the account (the first is admin) and a session as a password login makes; the second finds it", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    const r = await signIn(t, { sub: "alice-1", email: "Alice@Example.com", email_verified: true });
    expect(forwardsToApp(r)).toBe(true);
    expect(await r.text()).toContain('<meta http-equiv="refresh" content="0;url=/dashboard">');
    const refresh = cookieValue(r, "di_refresh");
    expect(refresh).toBeTruthy();
    expect(cookieValue(r, OIDC_COOKIE)).toBe(""); // the pending sign-in is spent
    const me = await t.call("POST", "/api/auth/refresh", { headers: { cookie: `di_refresh=${refresh}` } });
    expect(me.status).toBe(200);
    expect(me.json.user).toMatchObject({ email: "alice@example.com", role: "admin" });
    const id = me.json.user.id;

    const again = await signIn(t, { sub: "alice-1", email: "alice@example.com", email_verified: true });
    expect(forwardsToApp(again)).toBe(true);
    const me2 = await t.call("POST", "/api/auth/refresh", { headers: { cookie: `di_refresh=${cookieValue(again, "di_refresh")}` } });
    expect(me2.json.user.id).toBe(id);
    expect(userCount(t)).toBe(1);
    // The provider's e-mail is not the key: a changed address still opens the same account.
    const renamed = await signIn(t, { sub: "alice-1", email: "alice.new@example.com", email_verified: true });
    const me3 = await t.call("POST", "/api/auth/refresh", { headers: { cookie: `di_refresh=${cookieValue(renamed, "di_refresh")}` } });
    expect(me3.json.user.id).toBe(id);

    const audit = t.db
      .query<{ action: string; details: string | null }, []>(
        "SELECT action, details FROM audit_log WHERE action LIKE 'auth.sign_%' ORDER BY id",
      )
      .all();
    expect(audit.filter((a) => a.action === "auth.sign_in").map((a) => JSON.parse(a.details!).method)).toEqual(["oidc", "oidc", "oidc"]);
    expect(audit.some((a) => a.action === "auth.sign_up")).toBe(true);
  });

  test("a later newcomer is a user, and admin when ADMIN_EMAILS names them", async () => {
    const t = makeTestApp({ env: ssoEnv({ ADMIN_EMAILS: "boss@example.com" }) });
    await t.signup("first@example.com");
    await signIn(t, { sub: "u-2", email: "someone@example.com", email_verified: true });
    await signIn(t, { sub: "u-3", email: "boss@example.com", email_verified: false });
    const roles = t.db.query<{ email: string; role: string }, []>("SELECT email, role FROM users ORDER BY email").all();
    expect(roles).toEqual([
      { email: "boss@example.com", role: "admin" },
      { email: "first@example.com", role: "admin" },
      { email: "someone@example.com", role: "user" },
    ]);
  });

  test("a verified e-mail links to the existing password account; an unverified one does not", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    const pw = await t.signup("bob@example.com");
    const unverified = await signIn(t, { sub: "bob-x", email: "bob@example.com", email_verified: false });
    expect(errorOf(unverified)).toBe("unverified");
    expect(cookieValue(unverified, "di_refresh")).toBeUndefined();
    const missing = await signIn(t, { sub: "bob-y", email: "bob@example.com" });
    expect(errorOf(missing)).toBe("unverified");
    expect(userCount(t)).toBe(1);

    const verified = await signIn(t, { sub: "bob-1", email: "BOB@example.com", email_verified: true });
    expect(forwardsToApp(verified)).toBe(true);
    const me = await t.call("POST", "/api/auth/refresh", { headers: { cookie: `di_refresh=${cookieValue(verified, "di_refresh")}` } });
    expect(me.json.user.id).toBe(pw.user.id);
    // The password still works too.
    expect((await t.call("POST", "/api/auth/login", { body: { email: pw.email, password: pw.password } })).status).toBe(200);
  });

  test("a tampered state is refused with a clear reason, and so is an answer without its cookie", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    idp.signInAs({ sub: "eve-1", email: "eve@example.com", email_verified: true });
    const s = await start(t);
    const back = await signInAtProvider(s.authUrl, REDIRECT);
    back.searchParams.set("state", `${back.searchParams.get("state")}x`);
    const r = await callback(t, back, s.pending);
    expect(r.status).toBe(302);
    expect(errorOf(r)).toBe("state");
    expect(cookieValue(r, "di_refresh")).toBeUndefined();
    expect(errorOf(await callback(t, back, undefined))).toBe("expired");
    // An altered cookie fails its seal.
    const flipped = s.pending.slice(0, -2) + (s.pending.endsWith("AA") ? "BB" : "AA");
    expect(errorOf(await callback(t, back, flipped))).toBe("state");
    expect(userCount(t)).toBe(0);
    expect(t.logs.text()).toContain("oidc: sign-in refused (state)");
  });

  test("a nonce other than the one the sign-in was sent with is refused", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    idp.signInAs({ sub: "eve-2", email: "eve2@example.com", email_verified: true });
    const s = await start(t);
    const back = await signInAtProvider(s.authUrl, REDIRECT);
    // The same sign-in (state and PKCE verifier), remembering another nonce than the provider put in the ID token.
    const seal = pendingSignIns(SECRET);
    const p = seal.open(s.pending)!;
    const forged = seal.seal({ state: p.state, verifier: p.verifier, nonce: "another-nonce" });
    const r = await callback(t, back, forged);
    expect(errorOf(r)).toBe("nonce");
    expect(userCount(t)).toBe(0);
  });

  test("an answer from another issuer is refused", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    other.signInAs({ sub: "mallory", email: "mallory@example.com", email_verified: true });
    const s = await start(t);
    // The same request, sent to a second provider (same client id and secret) that answers with its own code.
    const swapped = new URL(s.authUrl);
    const at = new URL(other.issuer);
    swapped.host = at.host;
    const back = await signInAtProvider(swapped.href, REDIRECT);
    const r = await callback(t, back, s.pending);
    expect(errorOf(r)).toBe("issuer");
    expect(userCount(t)).toBe(0);
  });

  test("an e-mail domain outside OIDC_ALLOWED_DOMAINS is refused", async () => {
    const t = makeTestApp({ env: ssoEnv({ OIDC_ALLOWED_DOMAINS: "example.com, @corp.example" }) });
    expect(errorOf(await signIn(t, { sub: "x-1", email: "x@evil.test", email_verified: true }))).toBe("domain");
    expect(userCount(t)).toBe(0);
    expect(forwardsToApp(await signIn(t, { sub: "x-2", email: "x@corp.example", email_verified: true }))).toBe(true);
  });

  test("a disabled account is refused", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    await signIn(t, { sub: "d-1", email: "d@example.com", email_verified: true });
    t.db.run("UPDATE users SET disabled = 1");
    expect(errorOf(await signIn(t, { sub: "d-1", email: "d@example.com", email_verified: true }))).toBe("disabled");
  });

  test("the provider's own refusal comes back as denied", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    const s = await start(t);
    const r = await callback(t, `${REDIRECT}?error=access_denied&state=x`, s.pending);
    expect(errorOf(r)).toBe("denied");
  });

  test("the first account waits for the setup token: SSO does not take over a fresh server", async () => {
    const t = makeTestApp({ env: ssoEnv({ SETUP_TOKEN_REQUIRED: "1" }) });
    expect(errorOf(await signIn(t, { sub: "s-1", email: "s@example.com", email_verified: true }))).toBe("setup");
    expect(userCount(t)).toBe(0);
  });

  test("an unreachable provider sends the browser back to /login, never a 500", async () => {
    const t = makeTestApp({ env: ssoEnv({ OIDC_ISSUER: "http://127.0.0.1:9/" }) });
    const r = await t.app.handle(new Request("http://localhost/api/auth/oidc/start"));
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/login?error=unavailable");
  });
});

describe("SSO off and PASSWORD_LOGIN", () => {
  test("without OIDC_ISSUER both routes answer 404 { error } and the page offers no button", async () => {
    const t = makeTestApp();
    for (const path of ["/api/auth/oidc/start", "/api/auth/oidc/callback?code=x&state=y"]) {
      const r = await t.call("GET", path);
      expect(r.status).toBe(404);
      expect(r.json.error).toBe("Single sign-on is not configured on this server");
    }
    const page = await t.call("GET", "/login");
    expect(page.text).not.toContain("Continue with");
  });

  test("with it, the sign-in page offers Continue with <OIDC_NAME>", async () => {
    const t = makeTestApp({ env: ssoEnv() });
    const page = await t.call("GET", "/login");
    expect(page.text).toContain("Continue with <!-- -->Test IdP");
  });

  test("PASSWORD_LOGIN=admins refuses a non-admin's password (403 naming SSO) and lets an admin in", async () => {
    const t = makeTestApp({ env: ssoEnv({ PASSWORD_LOGIN: "admins" }) });
    const admin = await t.signup("admin@example.com");
    const user = await t.signup("user@example.com");
    const refused = await t.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toContain('"Continue with Test IdP"');
    expect(refused.headers.get("set-cookie")).toBeNull();
    // A wrong password still says only that: the role is told to whoever proved the password.
    const wrong = await t.call("POST", "/api/auth/login", { body: { email: user.email, password: "wrong-password" } });
    expect(wrong.status).toBe(401);
    expect((await t.call("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).status).toBe(200);
  });
});
