// POST /api/targets/:id/discover against a fixture site served on 127.0.0.1 (robots.txt, a sitemap
// index of a gzipped and a plain sitemap, header navigation): the right pages and roles, and the
// path robots.txt disallows is neither proposed nor ever requested (the site's request log).
import { afterAll, describe, expect, test } from "bun:test";
import { sqliteSql } from "#server/db/sql";
import { discoveryService } from "#server/modules/discovery/service";
import { makeTestApp } from "#tests/support/app";
import { startDiscoverySite } from "#tests/support/discovery-site";

const site = startDiscoverySite();
const servers: { stop(force?: boolean): unknown }[] = [];
afterAll(async () => {
  await site.close();
  for (const s of servers) s.stop(true);
});

async function owner(t: ReturnType<typeof makeTestApp>) {
  const u = await t.signup();
  const h = t.auth(u.token);
  const c = await t.call("POST", "/api/comparisons", { body: { name: "Discovery" }, headers: h });
  const addTarget = async (url: string) => {
    const r = await t.call("POST", `/api/comparisons/${c.json.id}/targets`, { body: { url, label: "Acme" }, headers: h });
    expect(r.status).toBe(201);
    return r.json.id as string;
  };
  return { h, comparisonId: c.json.id as string, addTarget };
}

describe("POST /api/targets/:id/discover", () => {
  const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "1" } });

  test("proposes the site's pages with roles; the disallowed path is listed, never proposed, never fetched", async () => {
    const alice = await owner(t);
    const targetId = await alice.addTarget(`${site.origin}/`);
    const r = await t.call("POST", `/api/targets/${targetId}/discover`, { headers: alice.h });
    expect(r.status, r.text).toBe(200);
    const pages = r.json.pages as { url: string; path: string; role: string; title: string | null; source: string }[];

    expect(pages[0]).toEqual({ url: `${site.origin}/`, path: "/", role: "home", title: "Acme & Co — ship faster", source: "nav" });
    const byPath = Object.fromEntries(pages.map((p) => [p.path, p]));
    expect(Object.keys(byPath).sort()).toEqual(
      ["/", "/blog/", "/blog/first-post", "/compare", "/go", "/help/", "/pricing/", "/product", "/welcome"].sort(),
    );
    expect(byPath["/pricing/"]).toMatchObject({ role: "pricing", source: "nav", title: "Pricing — Acme" });
    expect(byPath["/product"]).toMatchObject({ role: "features", source: "nav", title: "The Acme platform" });
    expect(byPath["/help/"]).toMatchObject({ role: "docs", source: "nav" });
    expect(byPath["/blog/"]).toMatchObject({ role: "blog", source: "nav" });
    // Roles from the link's text ("Get started"), the page's heading ("Sign up in a minute") and title ("Compare plans").
    expect(byPath["/go"]).toMatchObject({ role: "signup", source: "nav", title: "Create your account — Acme" });
    expect(byPath["/welcome"]).toMatchObject({ role: "signup", source: "sitemap", title: "Welcome to Acme" });
    expect(byPath["/compare"]).toMatchObject({ role: "pricing", source: "sitemap" });
    // From the gzipped sitemap and the plain one.
    expect(byPath["/blog/first-post"]).toMatchObject({ role: "blog", source: "sitemap", title: "Our first post — Acme blog" });
    for (const p of pages) expect(p.url).toBe(`${site.origin}${p.path}`);
    // Home first, then by role.
    expect(pages.map((p) => p.role)).toEqual(["home", "pricing", "pricing", "features", "signup", "signup", "docs", "blog", "blog"]);

    expect(r.json.disallowed).toEqual(["/private/", "/private/roadmap"]);
    const fetched = site.paths();
    expect(fetched.filter((p) => p.startsWith("/private"))).toEqual([]);
    // What was read: robots.txt first, the index, both sitemaps; never a page off the navigation or sitemaps.
    expect(fetched[0]).toBe("/robots.txt");
    for (const p of ["/sitemap_index.xml", "/sitemaps/pages.xml.gz", "/sitemaps/blog.xml", "/sitemap.xml"]) expect(fetched).toContain(p);
    expect(fetched).not.toContain("/body-link");
    expect(fetched).not.toContain("/legal");
    expect(new Set(site.log.map((l) => l.userAgent.split("/")[0]))).toEqual(new Set(["DesignIntel"]));
    // The stale sitemap entry was looked at and dropped.
    expect(byPath["/old-page"]).toBeUndefined();
  });

  test("someone else's target is 404 { error }, and nothing is fetched for them", async () => {
    const alice = await owner(t);
    const bob = await owner(t);
    const targetId = await alice.addTarget(`${site.origin}/`);
    const before = site.log.length;
    for (const path of [`/api/targets/${targetId}/discover`, "/api/targets/nope/discover"]) {
      const r = await t.call("POST", path, { headers: bob.h });
      expect(r.status).toBe(404);
      expect(r.json.error).toBe("Target not found");
    }
    expect((await t.call("POST", `/api/targets/${targetId}/discover`)).status).toBe(401);
    expect(site.log.length).toBe(before);
  });

  test("a site that does not answer is a 502 naming why, never a 500", async () => {
    const alice = await owner(t);
    // A port nothing listens on: the server that had it is stopped.
    const gone = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = gone.port;
    gone.stop(true);
    const targetId = await alice.addTarget(`http://127.0.0.1:${port}/`);
    const r = await t.call("POST", `/api/targets/${targetId}/discover`, { headers: alice.h });
    expect(r.status).toBe(502);
    expect(r.json.error).toBe(`Could not reach 127.0.0.1:${port}: the connection was refused`);
  });

  test("a robots.txt that answers 5xx is a 502 (RFC 9309: unreachable means disallow all)", async () => {
    const broken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("down", { status: 503 }) });
    servers.push(broken);
    const alice = await owner(t);
    const targetId = await alice.addTarget(`http://127.0.0.1:${broken.port}/`);
    const r = await t.call("POST", `/api/targets/${targetId}/discover`, { headers: alice.h });
    expect(r.status).toBe(502);
    expect(r.json.error).toContain("answered HTTP 503 for robots.txt");
  });

  test("a site too slow to answer is a 504", async () => {
    const alice = await owner(t);
    const hanging = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) });
    servers.push(hanging);
    const targetId = await alice.addTarget(`http://127.0.0.1:${hanging.port}/`);
    // The route's limits are seconds; the same service with a short one shows the answer.
    const quick = discoveryService({ db: sqliteSql(t.db), allowPrivateTargets: true, limits: { requestMs: 200 } });
    const userId = (await t.call("GET", "/api/auth/me", { headers: alice.h })).json.user.id as string;
    const err = await quick.discover(userId, targetId).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 504, message: `127.0.0.1:${hanging.port} did not answer within 200 ms` });
  });
});

describe("discovery budget", () => {
  test("an owner gets a few discoveries a minute and two at once; then 429 with Retry-After", async () => {
    const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "1" } });
    const alice = await owner(t);
    const targetId = await alice.addTarget(`${site.origin}/`);
    const userId = (await t.call("GET", "/api/auth/me", { headers: alice.h })).json.user.id as string;
    const service = discoveryService({ db: sqliteSql(t.db), allowPrivateTargets: true, perMinute: 2 });
    const settled = await Promise.allSettled([1, 2, 3].map(() => service.discover(userId, targetId)));
    expect(settled.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(settled[2]).toMatchObject({ reason: { status: 429 } });
    const third = await service.discover(userId, targetId).catch((e: unknown) => e);
    expect(third).toMatchObject({ status: 429, headers: { "retry-after": expect.any(String) } });
  });
});

describe("discovery with private targets off", () => {
  test("a target on a private address is 400 with the SSRF message, and nothing is fetched", async () => {
    const t = makeTestApp({ env: { ALLOW_PRIVATE_TARGETS: "0" } });
    const u = await t.signup();
    const h = t.auth(u.token);
    const c = await t.call("POST", "/api/comparisons", { body: { name: "Private" }, headers: h });
    // Saved while private targets were allowed, then the server was restarted with them off.
    t.db.run("INSERT INTO targets (id, comparison_id, owner_id, label, url, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
      "t-private",
      c.json.id,
      u.user.id,
      "Private",
      `${site.origin}/`,
      new Date().toISOString(),
    ]);
    const before = site.log.length;
    const r = await t.call("POST", "/api/targets/t-private/discover", { headers: h });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("That address points to a private or local network, which is not allowed");
    expect(site.log.length).toBe(before);
  });
});
