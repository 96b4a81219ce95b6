// Sites for the watch per page: each on its own fixture server (its own origin, so its own
// robots.txt and sitemap), with a home page whose navigation links pricing, features and about, and
// a sitemap a test can change between runs (`sitemap`). Pages are static and deterministic, so an
// unchanged page captures the same run after run.
import { startFixtureServer, type FixtureServer } from "./fixture-server";
import { HTML_TYPE } from "./static-files";

export interface WatchSite {
  name: string;
  server: FixtureServer;
  /** The home page's URL (the site's target URL). */
  url: string;
  /** The paths its sitemap lists, read on every request: delete one to remove it from the sitemap. */
  sitemap: Set<string>;
}

/** The pages every site has, by role; /old-offer/ is listed in the sitemap only (not linked). */
export const WATCH_PAGES = {
  home: "/",
  pricing: "/pricing/",
  features: "/features/",
} as const;
const NAV = ["/pricing/", "/features/", "/about/"];
const SITEMAP = ["/", "/pricing/", "/features/", "/about/", "/old-offer/"];

const TITLES: Record<string, string> = {
  "/": "Home",
  "/pricing/": "Pricing",
  "/features/": "Features",
  "/about/": "About us",
  "/old-offer/": "Spring offer",
};

function page(site: string, accent: string, path: string): string {
  const title = TITLES[path]!;
  const nav = NAV.map((p) => `<a href="${p}">${TITLES[p]}</a>`).join(" ");
  const plans = path === "/pricing/" ? `<ul><li>Starter — €9</li><li>Team — €29</li><li>Scale — €99</li></ul>` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${site} — ${title}</title>
<meta name="description" content="${site}: ${title.toLowerCase()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2937;background:#fff}
header{display:flex;gap:1.5rem;padding:1rem 2rem;border-bottom:1px solid #e5e7eb}header a{color:#1f2937}
main{padding:3rem 2rem;max-width:60rem}h1{font-size:2.5rem;color:${accent}}
.cta{display:inline-block;padding:.8rem 1.4rem;background:${accent};color:#fff;border-radius:.4rem;text-decoration:none}
section{margin-top:2rem;min-height:30rem;background:linear-gradient(#f9fafb,#f3f4f6);padding:1rem}</style></head>
<body><header><a href="/"><strong>${site}</strong></a><nav>${nav}</nav></header>
<main><h1>${site} ${title}</h1><p>${site} helps teams ship. This is the ${title.toLowerCase()} page.</p>${plans}
<a class="cta" href="/pricing/">Start free trial</a><section><h2>Why ${site}</h2><p>Fast, simple and secure.</p></section></main>
</body></html>`;
}

const html = (body: string) =>
  new Response(body, {
    headers: { "content-type": HTML_TYPE, "cache-control": "no-store" },
  });

/** One watch site; `accent` tells the sites apart in screenshots and colours. */
export function startWatchSite(name: string, accent: string): WatchSite {
  const sitemap = new Set(SITEMAP);
  let origin = "";
  const server = startFixtureServer(undefined, (_req, url) => {
    if (url.pathname === "/robots.txt")
      return new Response(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`, { headers: { "content-type": "text/plain" } });
    if (url.pathname === "/sitemap.xml") {
      const urls = [...sitemap].map((p) => `<url><loc>${origin}${p}</loc></url>`).join("");
      return new Response(
        `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
        {
          headers: { "content-type": "application/xml" },
        },
      );
    }
    return TITLES[url.pathname] ? html(page(name, accent, url.pathname)) : null;
  });
  origin = server.origin;
  return { name, server, url: `${server.origin}/`, sitemap };
}

/** Three sites, as the acceptance scenario has them. */
export const startWatchSites = () =>
  [
    ["Northwind", "#1d4ed8"],
    ["Eastwick", "#047857"],
    ["Westfall", "#b91c1c"],
  ].map(([name, accent]) => startWatchSite(name!, accent!));
