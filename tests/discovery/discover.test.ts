// Discovery's choices and limits, with a fake fetcher standing for the network (any host name,
// redirects, slow pages): what is read, in what order, and what is proposed.
import { describe, expect, test } from "bun:test";
import { discoverSite, SiteUnreachable } from "#server/modules/discovery/discover";
import { FetchFailure, type Fetcher } from "#server/modules/discovery/fetch";

interface Route {
  status?: number;
  body?: string | Uint8Array;
  type?: string;
  location?: string;
  delayMs?: number;
}

/** A network of fixed answers keyed by URL; unknown URLs are 404. Records every request made. */
function network(routes: Record<string, Route>) {
  const requested: string[] = [];
  const fetch: Fetcher = async (start, limits) => {
    let url = new URL(start.href);
    for (let hop = 0; ; hop++) {
      requested.push(url.href);
      const r = routes[url.href] ?? { status: 404, body: "not found", type: "text/html" };
      if (r.delayMs) {
        if (r.delayMs > limits.timeoutMs) {
          await Bun.sleep(limits.timeoutMs);
          throw new FetchFailure("timeout", `${url.host} did not answer within ${limits.timeoutMs} ms`);
        }
        await Bun.sleep(r.delayMs);
      }
      if (r.location) {
        if (hop >= limits.maxRedirects) throw new FetchFailure("redirects", "too many redirects");
        const next = new URL(r.location, url);
        if (limits.follow && !limits.follow(next)) throw new FetchFailure("hop-refused", `refused ${next.href}`);
        url = next;
        continue;
      }
      const body = typeof r.body === "string" ? new TextEncoder().encode(r.body) : (r.body ?? new Uint8Array());
      return { url, status: r.status ?? 200, contentType: r.type ?? "text/html", body, truncated: false };
    }
  };
  return { fetch, requested };
}

const page = (title: string, nav = "") => ({
  body: `<html><head><title>${title}</title></head><body><nav>${nav}</nav><h1>${title}</h1></body></html>`,
});
const urlset = (locs: string[]) => ({
  body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join("")}</urlset>`,
  type: "application/xml",
});
const robots = (text: string) => ({ body: text, type: "text/plain" });
const A = "https://acme.example";

describe("what is proposed", () => {
  test("at most 20 pages, home first; fifty blog posts do not crowd out pricing", async () => {
    const posts = Array.from({ length: 50 }, (_, i) => `${A}/blog/post-${i}`);
    const others = Array.from({ length: 30 }, (_, i) => `${A}/page-${i}`);
    const net = network({
      [`${A}/robots.txt`]: robots(`User-agent: *\nDisallow:\nSitemap: ${A}/s.xml`),
      [`${A}/`]: page("Home", `<a href="/blog/">Blog</a>${others.map((o, i) => `<a href="${o}">Page ${i}</a>`).join("")}`),
      [`${A}/s.xml`]: urlset([...posts, `${A}/products/enterprise/pricing`]),
    });
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch, limits: { titlesMs: 0 } });
    expect(r.pages).toHaveLength(20);
    expect(r.pages[0]).toMatchObject({ path: "/", role: "home" });
    const roles = r.pages.map((p) => p.role);
    expect(roles).toContain("features");
    expect(r.pages.filter((p) => p.role === "blog").length).toBe(3);
    expect(new Set(r.pages.map((p) => p.path)).size).toBe(20);
  });

  test("paths are deduplicated (a trailing slash is the same page); the nav's source and label win over the sitemap's", async () => {
    const net = network({
      [`${A}/robots.txt`]: { status: 404 },
      [`${A}/`]: page("Home", `<a href="/offer/">Plans</a>`),
      [`${A}/sitemap.xml`]: urlset([`${A}/offer`, `${A}/offer/`, `${A}/`, `${A}/index`, "https://other.example/offer"]),
      [`${A}/offer/`]: page("Offer"),
    });
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch });
    // /index is the home page under another name.
    expect(r.pages.map((p) => [p.path, p.role, p.source])).toEqual([
      ["/", "home", "nav"],
      ["/offer/", "pricing", "nav"],
    ]);
  });

  test("a home page robots.txt disallows is neither fetched nor proposed", async () => {
    const net = network({
      [`${A}/robots.txt`]: robots("User-agent: *\nDisallow: /\n"),
    });
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch });
    expect(r).toEqual({ pages: [], disallowed: ["/"] });
    expect(net.requested).toEqual([`${A}/robots.txt`]);
  });

  test("a redirect into a disallowed path is not followed", async () => {
    const net = network({
      [`${A}/robots.txt`]: robots("User-agent: *\nDisallow: /members\n"),
      [`${A}/`]: page("Home", `<a href="/account">Account</a>`),
      [`${A}/account`]: { status: 302, location: "/members/login" },
    });
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch });
    expect(net.requested).not.toContain(`${A}/members/login`);
    expect(r.pages.map((p) => p.path)).toEqual(["/", "/account"]);
  });
});

describe("sitemaps", () => {
  test("an index's sitemaps are read up to the limit; other origins and disallowed ones are not read", async () => {
    const children = Array.from({ length: 30 }, (_, i) => `${A}/sitemaps/s${i}.xml`);
    const routes: Record<string, Route> = {
      [`${A}/robots.txt`]: robots(
        `User-agent: *\nDisallow: /hidden\nSitemap: ${A}/index.xml\nSitemap: https://cdn.example/s.xml\nSitemap: ${A}/hidden.xml`,
      ),
      [`${A}/`]: page("Home"),
      [`${A}/index.xml`]: {
        body: `<sitemapindex>${children.map((c) => `<sitemap><loc>${c}</loc></sitemap>`).join("")}</sitemapindex>`,
        type: "application/xml",
      },
    };
    children.forEach((c, i) => (routes[c] = urlset([`${A}/p${i}`])));
    const net = network(routes);
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch, limits: { sitemaps: 4, titlesMs: 0 } });
    const sitemapsRead = net.requested.filter((u) => u.endsWith(".xml"));
    expect(sitemapsRead).toEqual([`${A}/index.xml`, `${A}/sitemap.xml`, `${A}/sitemaps/s0.xml`, `${A}/sitemaps/s1.xml`]);
    expect(r.pages.map((p) => p.path)).toEqual(["/", "/p0", "/p1"]);
  });

  test("entries are looked at up to the limit, all sitemaps together", async () => {
    const net = network({
      [`${A}/robots.txt`]: { status: 404 },
      [`${A}/`]: page("Home"),
      [`${A}/sitemap.xml`]: urlset(Array.from({ length: 100 }, (_, i) => `${A}/p${i}`)),
    });
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch, limits: { sitemapUrls: 5, titlesMs: 0 } });
    expect(r.pages.map((p) => p.path)).toEqual(["/", "/p0", "/p1", "/p2", "/p3", "/p4"]);
  });

  test("a gzipped sitemap is read; a broken one is skipped and the others still count", async () => {
    const net = network({
      [`${A}/robots.txt`]: robots(`Sitemap: ${A}/a.xml.gz\nSitemap: ${A}/broken.xml\n`),
      [`${A}/`]: page("Home"),
      [`${A}/a.xml.gz`]: { body: Bun.gzipSync(new TextEncoder().encode(urlset([`${A}/pricing`]).body)), type: "application/gzip" },
      [`${A}/broken.xml`]: { body: "<urlset><url><loc>", type: "application/xml" },
      [`${A}/pricing`]: page("Pricing"),
    });
    const logs: string[] = [];
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch, log: (m) => logs.push(m) });
    expect(r.pages.map((p) => p.path)).toEqual(["/", "/pricing"]);
    expect(logs.some((l) => l.includes("/sitemap.xml answered 404"))).toBe(true);
  });
});

describe("the site's origin", () => {
  test("a home that moves to www (or https) moves the site: the new origin's robots.txt is read before anything there", async () => {
    const W = "https://www.acme.example";
    const net = network({
      [`${A}/robots.txt`]: { status: 404 },
      [`${A}/`]: { status: 301, location: `${W}/` },
      [`${W}/robots.txt`]: robots("User-agent: *\nDisallow: /private\n"),
      [`${W}/`]: page("Acme", `<a href="/pricing">Pricing</a><a href="/private">Private</a>`),
      [`${W}/pricing`]: page("Pricing"),
    });
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch });
    expect(net.requested.slice(0, 4)).toEqual([`${A}/robots.txt`, `${A}/`, `${W}/robots.txt`, `${W}/`]);
    expect(r.pages.map((p) => p.url)).toEqual([`${W}/`, `${W}/pricing`]);
    expect(r.disallowed).toEqual(["/private"]);
  });

  test("http → https → www is two moves, each origin's robots.txt read first; a third is not followed", async () => {
    const H = "http://acme.example";
    const W = "https://www.acme.example";
    const moves: Record<string, Route> = {
      [`${H}/robots.txt`]: { status: 404 },
      [`${H}/`]: { status: 301, location: `${A}/` },
      [`${A}/robots.txt`]: { status: 404 },
      [`${A}/`]: { status: 301, location: `${W}/` },
      [`${W}/robots.txt`]: { status: 404 },
    };
    const net = network({
      ...moves,
      [`${W}/`]: page("Acme", `<a href="/index.html">Home</a><a href="/docs">Docs</a>`),
      [`${W}/docs`]: page("Docs"),
    });
    const r = await discoverSite(new URL(`${H}/`), { fetch: net.fetch });
    expect(net.requested.slice(0, 6)).toEqual([`${H}/robots.txt`, `${H}/`, `${A}/robots.txt`, `${A}/`, `${W}/robots.txt`, `${W}/`]);
    expect(r.pages.map((p) => p.url)).toEqual([`${W}/`, `${W}/docs`]);

    const far = network({ ...moves, [`${W}/`]: { status: 301, location: "https://acme.example/home" } });
    const r2 = await discoverSite(new URL(`${H}/`), { fetch: far.fetch });
    expect(far.requested).not.toContain("https://acme.example/home");
    expect(r2.pages.map((p) => p.url)).toEqual([`${W}/`]);
  });

  test("a home that redirects to another site is not followed there", async () => {
    const net = network({
      [`${A}/robots.txt`]: { status: 404 },
      [`${A}/`]: { status: 302, location: "https://login.other.example/" },
    });
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch });
    expect(net.requested).not.toContain("https://login.other.example/");
    expect(r.pages).toEqual([{ url: `${A}/`, path: "/", role: "home", title: null, source: "nav" }]);
  });
});

describe("robots.txt answers and failures", () => {
  test("5xx: the site is unreachable for discovery (502); 4xx: everything is allowed", async () => {
    const down = network({ [`${A}/robots.txt`]: { status: 503 } });
    const err = await discoverSite(new URL(`${A}/`), { fetch: down.fetch }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SiteUnreachable);
    expect(err).toMatchObject({ status: 502 });
    expect(down.requested).toEqual([`${A}/robots.txt`]);
    const missing = network({ [`${A}/robots.txt`]: { status: 403 }, [`${A}/`]: page("Home", `<a href="/x">X</a>`), [`${A}/x`]: page("X") });
    expect((await discoverSite(new URL(`${A}/`), { fetch: missing.fetch })).pages.map((p) => p.path)).toEqual(["/", "/x"]);
  });

  test("no answer at all is the fetcher's failure, passed on (the route makes it a 502 or 504)", async () => {
    const slow = network({ [`${A}/robots.txt`]: { delayMs: 10_000 } });
    const err = await discoverSite(new URL(`${A}/`), { fetch: slow.fetch, limits: { requestMs: 50 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchFailure);
    expect(err).toMatchObject({ kind: "timeout" });
  });
});

describe("titles", () => {
  test("fetched a few at a time within their budget: slow pages keep their link text and are still proposed", async () => {
    const routes: Record<string, Route> = {
      [`${A}/robots.txt`]: { status: 404 },
      [`${A}/`]: page("Home", Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">Link ${i}</a>`).join("")),
    };
    for (let i = 0; i < 12; i++) routes[`${A}/p${i}`] = { ...page(`Title ${i}`), delayMs: i < 4 ? 10 : 5_000 };
    const net = network(routes);
    const started = performance.now();
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch, limits: { titlesMs: 400, titleConcurrency: 4 } });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(r.pages).toHaveLength(13);
    const titles = r.pages.slice(1).map((p) => p.title);
    expect(titles.slice(0, 4)).toEqual(["Title 0", "Title 1", "Title 2", "Title 3"]);
    expect(titles.slice(4)).toEqual(Array.from({ length: 8 }, (_, i) => `Link ${i + 4}`));
  });

  test("a page that answers 404 or 410 (a stale sitemap entry) is dropped", async () => {
    const net = network({
      [`${A}/robots.txt`]: { status: 404 },
      [`${A}/`]: page("Home"),
      [`${A}/sitemap.xml`]: urlset([`${A}/gone`, `${A}/removed`, `${A}/here`]),
      [`${A}/removed`]: { status: 410 },
      [`${A}/here`]: page("Here"),
    });
    const r = await discoverSite(new URL(`${A}/`), { fetch: net.fetch });
    expect(r.pages.map((p) => p.path)).toEqual(["/", "/here"]);
  });
});
