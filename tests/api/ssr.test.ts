import { describe, expect, test } from "bun:test";
import { ROTATION_GRACE_MS } from "#server/modules/auth/service";
import { makeTestApp } from "#tests/support/app";

describe("server rendering", () => {
  test("a guarded page renders the guard without a session", async () => {
    const t = makeTestApp();
    const r = await t.call("GET", "/dashboard");
    expect(r.status).toBe(200);
    expect(r.text).toContain("Hold Up There, Digital Wanderer");
    expect(r.text).toContain("Sign In to Continue");
    expect(r.text).toContain("Join the Rebellion");
  });

  test("a signed-in reload renders the page, decided from the refresh cookie", async () => {
    const t = makeTestApp();
    const { cookie, email } = await t.signup();
    const r = await t.call("GET", "/dashboard", { headers: { cookie } });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("Hold Up There, Digital Wanderer");
    expect(r.text).toContain(email);
  });

  test("a cookie rotated seconds ago still renders the page signed in, but never refreshes; not after the grace or a replay", async () => {
    let clock = Date.parse("2026-11-22T08:00:00Z");
    const t = makeTestApp({ now: () => clock });
    const { cookie: old, email } = await t.signup();
    const rotated = await t.call("POST", "/api/auth/refresh", { headers: { cookie: old } });
    const fresh = (rotated.headers.get("set-cookie") ?? "").split(";")[0]!;
    // The next page's request can still carry the old cookie while the new one is on its way.
    clock += 5_000;
    expect((await t.call("GET", "/dashboard", { headers: { cookie: old } })).text).toContain(email);
    expect((await t.call("POST", "/api/auth/refresh", { headers: { cookie: old } })).status).toBe(409);
    clock += ROTATION_GRACE_MS;
    expect((await t.call("GET", "/dashboard", { headers: { cookie: old } })).text).toContain("Hold Up There, Digital Wanderer");
    expect((await t.call("GET", "/dashboard", { headers: { cookie: fresh } })).text).toContain(email);

    // A replay past the grace ends the whole session, and then nothing renders signed in.
    const again = await t.call("POST", "/api/auth/refresh", { headers: { cookie: fresh } });
    const newest = (again.headers.get("set-cookie") ?? "").split(";")[0]!;
    clock += ROTATION_GRACE_MS + 1_000;
    expect((await t.call("POST", "/api/auth/refresh", { headers: { cookie: fresh } })).status).toBe(401);
    for (const c of [fresh, newest])
      expect((await t.call("GET", "/dashboard", { headers: { cookie: c } })).text).toContain("Hold Up There, Digital Wanderer");
  });

  test("a revoked cookie does not sign the page in", async () => {
    const t = makeTestApp();
    const { cookie } = await t.signup();
    await t.call("POST", "/api/auth/logout", { headers: { cookie } });
    const r = await t.call("GET", "/dashboard", { headers: { cookie } });
    expect(r.text).toContain("Hold Up There, Digital Wanderer");
  });

  test("pages carry a nonce'd CSP and the hydration payload uses that nonce", async () => {
    const t = makeTestApp();
    const r = await t.call("GET", "/");
    const csp = r.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("'unsafe-inline' 'self' 'nonce"); // scripts: self + nonce only
    const scripts = [...r.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) {
      if (attrs.includes("src=")) continue;
      expect(attrs).toContain(`nonce="${nonce}"`);
    }
    expect(r.text).toContain("__staticRouterHydrationData");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("referrer-policy")).toBeTruthy();
  });

  test("the user's name in the hydration payload cannot break out of the script", async () => {
    const t = makeTestApp();
    const r0 = await t.call("POST", "/api/auth/signup", {
      body: { email: "x@example.com", password: "password-1", username: "</script><script>alert(1)</script>" },
    });
    const cookie = r0.headers.get("set-cookie")!.split(";")[0]!;
    const r = await t.call("GET", "/dashboard", { headers: { cookie } });
    expect(r.text).not.toContain("<script>alert(1)</script>");
  });

  test("unknown pages answer 404 with the 404 page", async () => {
    const t = makeTestApp();
    const r = await t.call("GET", "/no/such/page");
    expect(r.status).toBe(404);
    expect(r.text).toContain("404 Page Not Found");
    expect(r.text).toContain("<title>404 Page Not Found · Design Intel</title>");
  });

  test("assets are immutable and gzip'd on request", async () => {
    const t = makeTestApp();
    const html = (await t.call("GET", "/")).text;
    const js = /\/assets\/[\w.-]+\.js/.exec(html)![0];
    const res = await t.app.handle(new Request(`http://localhost${js}`, { headers: { "accept-encoding": "gzip" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect((await t.call("GET", "/assets/nope.js")).status).toBe(404);
  });

  test("a signed-in page renders in the workspace last chosen, and hands it to the client in the hydration payload", async () => {
    const t = makeTestApp();
    const { cookie, token, user } = await t.signup();
    const bearer = { headers: t.auth(token) };
    await t.call("POST", "/api/comparisons", { ...bearer, body: { name: "Mine alone" } });
    const team = (await t.call("POST", "/api/workspaces", { ...bearer, body: { name: "Growth team" } })).json as { id: string };
    await t.call("POST", "/api/comparisons", { headers: { ...t.auth(token), "x-workspace-id": team.id }, body: { name: "Team only" } });
    /** The root loader's answer as the client reads it, and whether each comparison was rendered. */
    const render = async () => {
      const html = (await t.call("GET", "/comparison", { headers: { cookie } })).text;
      const literal = /__staticRouterHydrationData = JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(html)![1]!;
      const data = JSON.parse(JSON.parse(literal) as string) as { loaderData: { root: { workspace: unknown } } };
      return { workspace: data.loaderData.root.workspace, mine: html.includes("Mine alone"), team: html.includes("Team only") };
    };

    expect(await render()).toEqual({
      workspace: { id: user.id, name: "Personal", role: "owner", personal: true },
      mine: true,
      team: false,
    });
    expect((await t.call("PUT", "/api/me/workspace", { ...bearer, body: { id: team.id } })).status).toBe(200);
    expect(await render()).toEqual({
      workspace: { id: team.id, name: "Growth team", role: "owner", personal: false },
      mine: false,
      team: true,
    });
  });
});
