// What discovery costs against a site that answers like a remote one (every request held LATENCY_MS
// on 127.0.0.1): robots.txt, the home page, a sitemap index of two sitemaps and the missing
// /sitemap.xml, then the titles of the 19 chosen pages. Alternating rounds of:
//   bare     plain fetch() of the same six files one after another (no guard, no parsing)
//   ours     discoverSite through the guarded fetcher, titles off (titlesMs 0)
//   titles   discoverSite as the route runs it (titles of the chosen pages, 6 at a time)
// Targets: ours / bare ≤ 1.2 (the guard, limits and parsing cost little next to the network), and
// titles / ours ≤ 2 (fetching titles at most doubles a discovery).
//   bun bench/discovery.bench.ts [rounds=5]   (LATENCY_MS=120 by default)
import { discoverSite } from "#server/modules/discovery/discover";
import { createFetcher } from "#server/modules/discovery/fetch";
import { DISCOVERY_USER_AGENT } from "#server/modules/discovery/robots";
import { verdict } from "./lib";

const ROUNDS = Number(process.argv[2] ?? 5);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 120);

const sections = [
  "pricing",
  "features",
  "signup",
  "docs",
  "blog",
  "about",
  "customers",
  "careers",
  "contact",
  "security",
  "partners",
  "status",
];
const posts = Array.from({ length: 30 }, (_, i) => `/blog/post-${i}`);
const page = (title: string, nav = "") =>
  `<!doctype html><html><head><title>${title}</title></head><body><header><nav>${nav}</nav></header><h1>${title}</h1>${"<p>Copy. </p>".repeat(200)}</body></html>`;

let origin = "";
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    await Bun.sleep(LATENCY_MS);
    const path = new URL(req.url).pathname;
    const xml = (body: string) => new Response(body, { headers: { "content-type": "application/xml" } });
    const urlset = (paths: string[]) =>
      xml(
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join("")}</urlset>`,
      );
    if (path === "/robots.txt") return new Response(`User-agent: *\nDisallow: /admin\nSitemap: ${origin}/sitemap_index.xml\n`);
    if (path === "/sitemap_index.xml")
      return xml(
        `<sitemapindex><sitemap><loc>${origin}/s-pages.xml</loc></sitemap><sitemap><loc>${origin}/s-blog.xml</loc></sitemap></sitemapindex>`,
      );
    if (path === "/s-pages.xml") return urlset(sections.map((s) => `/${s}`));
    if (path === "/s-blog.xml") return urlset(posts);
    if (path === "/")
      return new Response(page("Home", sections.map((s) => `<a href="/${s}">${s}</a>`).join("")), {
        headers: { "content-type": "text/html" },
      });
    if (path === "/sitemap.xml") return new Response("not found", { status: 404 });
    return new Response(page(`Page ${path}`), { headers: { "content-type": "text/html" } });
  },
});
origin = `http://127.0.0.1:${server.port}`;

const BARE_FILES = ["/robots.txt", "/", "/sitemap_index.xml", "/sitemap.xml", "/s-pages.xml", "/s-blog.xml"];
async function bare() {
  for (const p of BARE_FILES) await (await fetch(`${origin}${p}`)).arrayBuffer();
}
async function ours(titles: boolean) {
  const fetcher = createFetcher({ allowPrivate: true, userAgent: DISCOVERY_USER_AGENT });
  const r = await discoverSite(new URL(`${origin}/`), { fetch: fetcher, limits: titles ? {} : { titlesMs: 0 } });
  if (r.pages.length !== 20) throw new Error(`expected 20 pages, got ${r.pages.length}`);
  if (titles && r.pages.some((p) => p.title === null)) throw new Error("a title is missing");
}

const time = async (fn: () => Promise<void>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await ours(true); // warm-up: JIT, parser, sockets
const runs = { bare: [] as number[], ours: [] as number[], titles: [] as number[] };
for (let i = 0; i < ROUNDS; i++) {
  runs.bare.push(await time(bare));
  runs.ours.push(await time(() => ours(false)));
  runs.titles.push(await time(() => ours(true)));
}
await server.stop(true);

const m = { bare: median(runs.bare), ours: median(runs.ours), titles: median(runs.titles) };
console.log(`latency ${LATENCY_MS} ms a request, ${ROUNDS} rounds, medians:`);
console.log(`  bare fetch of the 6 files   ${m.bare.toFixed(0)} ms`);
console.log(`  discovery, titles off       ${m.ours.toFixed(0)} ms`);
console.log(`  discovery with 19 titles    ${m.titles.toFixed(0)} ms (titles ${(m.titles - m.ours).toFixed(0)} ms)`);
verdict("discovery without titles / bare fetches", m.ours / m.bare, { atMost: 1.2 });
verdict("discovery with titles / without", m.titles / m.ours, { atMost: 2 });
