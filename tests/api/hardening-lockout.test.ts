// Sign-in throttling with device cookies (OWASP "Slow Down Online Guessing Attacks with Device
// Cookies"): a stranger's wrong passwords cannot lock the owner out of a browser they have
// signed in from before, while guessing from untrusted clients stays limited per account and per IP.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SIGN_IN_LIMITS } from "#server/app";
import { DEVICE_COOKIE, DEVICE_COOKIE_PATH, deviceCookies } from "#server/modules/auth/device-cookie";
import { makeTestApp } from "#tests/support/app";

// The production budgets themselves (src/app.ts), so a change to them is a change these tests follow.
const LIMITS = SIGN_IN_LIMITS;
/** Failed attempts an account takes from untrusted clients in a minute, and attempts an address makes. */
const ACCOUNT = LIMITS.perAccountPerMinute;
const IP = LIMITS.perIpPerMinute;
const PASSWORD = "correct-horse-battery";

type T = ReturnType<typeof makeTestApp>;

/** The di_device cookie an answer set, as "name=value" for a Cookie header. */
function deviceCookieOf(headers: Headers): string | null {
  const c = headers.getSetCookie().find((v) => v.startsWith(`${DEVICE_COOKIE}=`));
  return c ? c.split(";")[0]! : null;
}

const login = (t: T, email: string, password: string, opts: { cookie?: string; ip?: string } = {}) =>
  t.call("POST", "/api/auth/login", {
    body: { email, password },
    headers: { ...(opts.cookie ? { cookie: opts.cookie } : {}), ...(opts.ip ? { "x-forwarded-for": opts.ip } : {}) },
  });

describe("device cookie", () => {
  test("sign-up and sign-in set it: HttpOnly, SameSite=Strict, scoped to the login route, Secure on HTTPS", async () => {
    const t = makeTestApp({ limits: LIMITS });
    const signup = await t.call("POST", "/api/auth/signup", { body: { email: "dev@example.com", password: PASSWORD } });
    const set = signup.headers.getSetCookie();
    expect(set[0]).toStartWith("di_refresh=");
    const device = set.find((c) => c.startsWith(`${DEVICE_COOKIE}=`))!;
    expect(device).toContain("HttpOnly");
    expect(device).toContain("SameSite=Strict");
    expect(device).toContain(`Path=${DEVICE_COOKIE_PATH}`);
    expect(device).not.toContain("Secure");

    const https = await t.app.handle(
      new Request("https://localhost/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "dev@example.com", password: PASSWORD }),
      }),
    );
    expect(https.status).toBe(200);
    expect(https.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))).toContain("Secure");
  });

  test("it is bound to its user and signed: another account's, a tampered or a forged one is not trusted", () => {
    const secret = new TextEncoder().encode("s".repeat(40));
    const cookies = deviceCookies(secret);
    const value = cookies.issue("user-a");
    expect(cookies.deviceFor(value, "user-a")).toBeString();
    expect(cookies.deviceFor(value, "user-b")).toBeNull();
    expect(cookies.deviceFor(value.replace("user-a", "user-b"), "user-b")).toBeNull();
    const parts = value.split(".");
    parts[3] = String(Number(parts[3]) + 1000); // a longer life, under the old signature
    expect(cookies.deviceFor(parts.join("."), "user-a")).toBeNull();
    expect(deviceCookies(new TextEncoder().encode("t".repeat(40))).deviceFor(value, "user-a")).toBeNull();
    expect(cookies.deviceFor("garbage", "user-a")).toBeNull();
    expect(cookies.deviceFor(undefined, "user-a")).toBeNull();
    let now = Date.now();
    const expiring = deviceCookies(secret, () => now);
    const old = expiring.issue("user-a");
    now += 366 * 24 * 60 * 60 * 1000;
    expect(expiring.deviceFor(old, "user-a")).toBeNull();
  });
});

describe("lockout", () => {
  test("ten wrong passwords from one client: that client is throttled, the owner's known device still signs in", async () => {
    const t = makeTestApp({ limits: LIMITS });
    const owner = await t.call("POST", "/api/auth/signup", { body: { email: "owner@example.com", password: PASSWORD } });
    const ownerDevice = deviceCookieOf(owner.headers)!;
    expect(ownerDevice).toBeString();

    for (let i = 0; i < ACCOUNT; i++) expect((await login(t, "owner@example.com", `guess-${i}`)).status).toBe(401);
    const attacker = await login(t, "owner@example.com", `guess-${ACCOUNT}`);
    expect(attacker.status).toBe(429);
    expect(Number(attacker.headers.get("retry-after"))).toBeGreaterThan(0);
    // Even the right password is refused from an untrusted client while the account is throttled.
    expect((await login(t, "owner@example.com", PASSWORD)).status).toBe(429);

    const known = await login(t, "owner@example.com", PASSWORD, { cookie: ownerDevice });
    expect(known.status).toBe(200);
    expect(known.json.user.email).toBe("owner@example.com");
    // A new device cookie each sign-in; the attacker's client is still throttled afterwards.
    expect(deviceCookieOf(known.headers)).toBeString();
    expect((await login(t, "owner@example.com", "guess-again")).status).toBe(429);
  });

  test("the attacker's device cookie for their own account does not count for the victim's", async () => {
    const t = makeTestApp({ limits: LIMITS });
    await t.signup("victim@example.com", PASSWORD);
    const mine = deviceCookieOf(
      (await t.call("POST", "/api/auth/signup", { body: { email: "mallory@example.com", password: PASSWORD } })).headers,
    )!;
    for (let i = 0; i < ACCOUNT; i++) expect((await login(t, "victim@example.com", `guess-${i}`, { cookie: mine })).status).toBe(401);
    expect((await login(t, "victim@example.com", `guess-${ACCOUNT}`, { cookie: mine })).status).toBe(429);
  });

  test("a known device's own failures are limited too, and then it is just another untrusted client", async () => {
    const t = makeTestApp({ limits: { ...LIMITS, perDevicePerMinute: 3 } });
    const device = deviceCookieOf(
      (await t.call("POST", "/api/auth/signup", { body: { email: "typo@example.com", password: PASSWORD } })).headers,
    )!;
    for (let i = 0; i < 3; i++) expect((await login(t, "typo@example.com", `typo-${i}`, { cookie: device })).status).toBe(401);
    // Its own budget is spent: now it counts against the account's untrusted budget, which is untouched.
    expect((await login(t, "typo@example.com", PASSWORD, { cookie: device })).status).toBe(200);
    for (let i = 0; i < 3; i++) await login(t, "typo@example.com", `typo-again-${i}`, { cookie: device });
    for (let i = 0; i < ACCOUNT - 3; i++) await login(t, "typo@example.com", `stranger-${i}`);
    expect((await login(t, "typo@example.com", PASSWORD, { cookie: device })).status).toBe(429);
  });

  test("an untrusted client is still limited per account (failures, whatever the address)", async () => {
    const t = makeTestApp({ limits: LIMITS, env: { TRUST_PROXY: "1" } });
    await t.signup("target@example.com", PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT + 2; i++)
      statuses.push((await login(t, "target@example.com", `guess-${i}`, { ip: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}` })).status);
    expect(statuses.slice(0, ACCOUNT)).toEqual(Array(ACCOUNT).fill(401));
    expect(statuses.slice(ACCOUNT)).toEqual([429, 429]);
  });

  test("successful untrusted sign-ins do not use up the account's budget", async () => {
    const t = makeTestApp({ limits: { ...LIMITS, perAccountPerMinute: 2 } });
    await t.signup("busy@example.com", PASSWORD);
    for (let i = 0; i < 5; i++) expect((await login(t, "busy@example.com", PASSWORD)).status).toBe(200);
    expect((await login(t, "busy@example.com", "wrong-1")).status).toBe(401);
  });

  test("an untrusted client is still limited per IP, across accounts", async () => {
    const t = makeTestApp({ limits: LIMITS, env: { TRUST_PROXY: "1" } });
    const statuses: number[] = [];
    for (let i = 0; i < IP + 2; i++) statuses.push((await login(t, `nobody-${i}@example.com`, "guess", { ip: "203.0.113.9" })).status);
    expect(statuses.slice(0, IP).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(IP)).toEqual([429, 429]);
    // Another address is not affected.
    expect((await login(t, "nobody-x@example.com", "guess", { ip: "203.0.113.10" })).status).toBe(401);
  });

  test("parallel guesses can't slip past the account budget before the first failure is known", async () => {
    const t = makeTestApp({ limits: { ...LIMITS, perIpPerMinute: 1000 } });
    await t.signup("burst@example.com", PASSWORD);
    const statuses = await Promise.all(
      Array.from({ length: 2 * ACCOUNT }, (_, i) => login(t, "burst@example.com", `guess-${i}`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401).length).toBe(ACCOUNT);
    expect(statuses.filter((s) => s === 429).length).toBe(ACCOUNT);
  });
});

test("docs/security.md states the limits the app enforces", () => {
  const doc = readFileSync(join(import.meta.dir, "../../docs/security.md"), "utf8");
  expect(doc).toContain(`**${LIMITS.perDevicePerMinute} failed attempts per minute per device**`);
  expect(doc).toContain(`**${IP} attempts per minute per client address**`);
  expect(doc).toContain(`**${ACCOUNT} failed attempts per minute per account**`);
});
