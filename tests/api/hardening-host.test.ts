// HSTS on HTTPS only (directly, or via X-Forwarded-Proto from a trusted proxy), the Host and Origin
// rules of PUBLIC_URL (DNS rebinding) for HTTP and the WebSocket upgrade, and malformed Host headers
// refused before routing.
import { afterEach, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { liveSockets, WS_SUBPROTOCOL } from "#server/live/ws";
import { HOST_MESSAGES } from "#server/http/host-guard";
import { REFRESH_COOKIE } from "#server/modules/auth";
import { makeTestApp } from "#tests/support/app";

const PUBLIC = "https://intel.example.com";
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The app behind a real Bun.serve with /ws wired as src/boot/serve.ts wires it, PUBLIC_URL included. */
function serve(t: ReturnType<typeof makeTestApp>) {
  const live = liveSockets({
    hub: t.services.live,
    userForAccessToken: t.services.auth.userForAccessToken,
    userForRefreshToken: t.services.auth.userForRefreshToken,
    sessionOf: t.services.auth.sessionOf,
    refreshCookie: REFRESH_COOKIE,
    hosts: { publicUrl: t.env.PUBLIC_URL, trustProxy: t.env.TRUST_PROXY },
  });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    routes: live.routes,
    fetch: (req) => t.app.handle(req),
    websocket: live.websocket,
  });
  cleanups.push(() => server.stop(true));
  return server.port!;
}

/** Sends exactly these bytes (Host header included) and returns the status code of the answer. */
function rawStatus(port: number, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let got = "";
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(s) {
          s.write(head);
        },
        data(s, chunk) {
          got += new TextDecoder().decode(chunk);
          const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
          if (m) {
            resolve(Number(m[1]));
            s.end();
          }
        },
        close() {
          reject(new Error(`closed without a status line: ${JSON.stringify(got)}`));
        },
        error(_s, e) {
          reject(e);
        },
      },
    }).catch(reject);
  });
}

const get = (path: string, headers: Record<string, string>) =>
  `GET ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
const upgrade = (headers: Record<string, string>, token: string) =>
  get("/ws", {
    ...headers,
    connection: "Upgrade",
    upgrade: "websocket",
    "sec-websocket-version": "13",
    "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
    "sec-websocket-protocol": `${WS_SUBPROTOCOL}, bearer.${token}`,
  });

describe("HSTS", () => {
  const hsts = async (t: ReturnType<typeof makeTestApp>, url: string, headers: Record<string, string> = {}) =>
    (await t.app.handle(new Request(url, { headers }))).headers.get("strict-transport-security");

  test("sent on HTTPS: directly, or by X-Forwarded-Proto only behind a trusted proxy", async () => {
    const plain = makeTestApp();
    const proxied = makeTestApp({ env: { TRUST_PROXY: "1" } });
    for (const path of ["/api/health", "/login", "/api/nope"]) {
      expect(await hsts(plain, `https://localhost${path}`)).toStartWith("max-age=31536000");
      expect(await hsts(proxied, `http://localhost${path}`, { "x-forwarded-proto": "https" })).toStartWith("max-age=31536000");
      expect(await hsts(plain, `http://localhost${path}`)).toBeNull();
      // Without TRUST_PROXY anyone can write X-Forwarded-Proto: it is not believed.
      expect(await hsts(plain, `http://localhost${path}`, { "x-forwarded-proto": "https" })).toBeNull();
      expect(await hsts(proxied, `http://localhost${path}`, { "x-forwarded-proto": "http" })).toBeNull();
    }
  });

  test("the secure-cookie flag follows the same rule", async () => {
    const plain = makeTestApp();
    const r = await plain.call("POST", "/api/auth/signup", {
      body: { email: "p@example.com", password: "correct-horse-battery" },
      headers: { "x-forwarded-proto": "https" },
    });
    expect(r.headers.getSetCookie().some((c) => c.includes("Secure"))).toBe(false);
    const proxied = makeTestApp({ env: { TRUST_PROXY: "1" } });
    const s = await proxied.call("POST", "/api/auth/signup", {
      body: { email: "p@example.com", password: "correct-horse-battery" },
      headers: { "x-forwarded-proto": "https" },
    });
    expect(s.headers.getSetCookie().every((c) => c.includes("Secure"))).toBe(true);
  });
});

describe("malformed Host", () => {
  test("Host: x is 400 before routing (Elysia would otherwise drop part of the path)", async () => {
    for (const env of [{}, { PUBLIC_URL: PUBLIC }] as Record<string, string>[]) {
      const port = serve(makeTestApp({ env }));
      expect(await rawStatus(port, get("/xx/api/health", { host: "x" }))).toBe(400);
      expect(await rawStatus(port, get("/api/health", { host: "abc" }))).toBe(400);
      expect(await rawStatus(port, get("/ws", { host: "x" }))).toBe(400);
      expect(await rawStatus(port, get("/api/health", { host: "a b" }))).toBe(400);
      expect(await rawStatus(port, get("/api/health", { host: "" }))).toBe(400);
      expect(await rawStatus(port, "GET /api/comparisons/x/targets HTTP/1.0\r\n\r\n")).toBe(400);
      expect(await rawStatus(port, "GET /ws HTTP/1.0\r\n\r\n")).toBe(400);
      expect(await rawStatus(port, get("/api/health", { host: `127.0.0.1:${port}` }))).toBe(200);
    }
    const t = makeTestApp();
    const r = await t.app.handle(new Request("http://x/xx/api/health"));
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: HOST_MESSAGES.malformed });
  });
});

describe("PUBLIC_URL", () => {
  test("HTTP: a foreign Host or Origin is refused; its own host and loopback are served", async () => {
    const t = makeTestApp({ env: { PUBLIC_URL: PUBLIC } });
    const at = (url: string, headers: Record<string, string> = {}) => t.app.handle(new Request(url, { headers }));
    expect((await at("http://intel.example.com/api/health")).status).toBe(200);
    expect((await at("http://intel.example.com/api/health", { origin: PUBLIC })).status).toBe(200);
    expect((await at("http://localhost:3000/api/health")).status).toBe(200);
    const rebound = await at("http://attacker.example/api/health");
    expect(rebound.status).toBe(421);
    expect(await rebound.json()).toEqual({ error: HOST_MESSAGES.foreignHost });
    expect((await at("http://attacker.example/login")).status).toBe(421);
    const crossSite = await at("http://intel.example.com/api/health", { origin: "https://attacker.example" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ error: HOST_MESSAGES.foreignOrigin });
    expect((await at("http://intel.example.com/api/health", { origin: "null" })).status).toBe(403);
    expect((await at("http://localhost:3000/api/health", { origin: "https://attacker.example" })).status).toBe(403);
    // The first account (a public PUBLIC_URL asks for the setup token) from the right origin.
    const signup = await t.call("POST", "/api/auth/signup", {
      body: { email: "pub@example.com", password: "correct-horse-battery", setupToken: await t.services.auth.pendingSetupToken() },
      headers: { origin: PUBLIC },
    });
    expect(signup.status).toBe(201);
    // Without PUBLIC_URL any well-formed Host is served.
    expect((await makeTestApp().app.handle(new Request("http://attacker.example/api/health"))).status).toBe(200);
  });

  test("WebSocket: a foreign Host or Origin is refused at the upgrade", async () => {
    const t = makeTestApp({ env: { PUBLIC_URL: PUBLIC } });
    const first = await t.call("POST", "/api/auth/signup", {
      body: { email: "ws@example.com", password: "correct-horse-battery", setupToken: await t.services.auth.pendingSetupToken() },
    });
    const token: string = first.json.accessToken;
    const port = serve(t);
    expect(await rawStatus(port, upgrade({ host: "intel.example.com", origin: PUBLIC }, token))).toBe(101);
    expect(await rawStatus(port, upgrade({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` }, token))).toBe(101);
    expect(await rawStatus(port, upgrade({ host: "attacker.example", origin: "http://attacker.example" }, token))).toBe(421);
    expect(await rawStatus(port, upgrade({ host: "intel.example.com", origin: "https://attacker.example" }, token))).toBe(403);
    expect(await rawStatus(port, upgrade({ host: "x", origin: PUBLIC }, token))).toBe(400);
  });
});

describe("access-token claims", () => {
  const secret = new TextEncoder().encode("test-secret-test-secret-test-secret-1234");
  const token = (claims: { exp?: boolean; sid?: string | null }, sub: string, ver = 0) => {
    const jwt = new SignJWT({ role: "user", ver, ...(claims.sid ? { sid: claims.sid } : {}) })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(sub)
      .setIssuedAt()
      .setIssuer("design-intel");
    if (claims.exp !== false) jwt.setExpirationTime("15m");
    return jwt.sign(secret);
  };

  test("a token signed with the real key but without exp or without sid is refused", async () => {
    const t = makeTestApp();
    const u = await t.signup();
    const sid = (await t.services.auth.sessionOf({ accessToken: u.token }))!;
    expect(sid).toBeString();
    const me = async (tok: string) => (await t.call("GET", "/api/auth/me", { headers: t.auth(tok) })).status;
    expect(await me(await token({ sid }, u.user.id))).toBe(200); // the forgery works when complete: the key is right
    expect(await me(await token({ exp: false, sid }, u.user.id))).toBe(401);
    expect(await me(await token({ sid: null }, u.user.id))).toBe(401);
    expect(await me(await token({ exp: false, sid: null }, u.user.id))).toBe(401);
  });

  test("the server-side loaders' tokens carry the page's session, so logging out ends them", async () => {
    const t = makeTestApp();
    const u = await t.signup();
    const refresh = decodeURIComponent(u.cookie.slice(u.cookie.indexOf("=") + 1));
    const loaderToken = (await t.services.auth.accessTokenFor(refresh))!;
    const claims = JSON.parse(Buffer.from(loaderToken.split(".")[1]!, "base64url").toString());
    expect(claims.sid).toBe(await t.services.auth.sessionOf({ refreshToken: refresh }));
    expect(typeof claims.exp).toBe("number");
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(loaderToken) })).status).toBe(200);
    // A signed-in page still renders its loaders' data.
    expect((await t.call("GET", "/dashboard", { headers: { cookie: u.cookie } })).text).not.toContain("Hold Up There, Digital Wanderer");
    await t.call("POST", "/api/auth/logout", { headers: { cookie: u.cookie } });
    expect((await t.call("GET", "/api/auth/me", { headers: t.auth(loaderToken) })).status).toBe(401);
    expect(await t.services.auth.accessTokenFor(refresh)).toBeNull();
  });
});
