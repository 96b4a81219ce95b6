// Serves tests/fixtures/sites on 127.0.0.1 (random port) plus a few misbehaving pages, so capture
// and analysis tests never touch outside sites. Large images are generated on first request
// (deterministic noise, so they don't compress) instead of being checked in.

import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, normalize, resolve, sep } from "node:path";
import { contentType, HTML_TYPE } from "./static-files";
import { PNG } from "pngjs";

export interface FixtureServer {
  /** "http://127.0.0.1:PORT" */
  origin: string;
  port: number;
  url(path: string): string;
  /** How many requests reached a path (pathname only). */
  hits(path: string): number;
  /** The query strings of every request that reached a path, in arrival order. */
  queries(path: string): string[];
  close(): Promise<void>;
}

export const SITES_DIR = resolve(import.meta.dir, "../fixtures/sites");

// ---- generated images --------------------------------------------------------------------------

/** Mulberry32: a tiny seeded PRNG so generated images are identical on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rgb = [number, number, number];

/** A diagonal gradient between two colours with per-pixel noise (noise keeps the PNG big, like a photo). */
function gradientPng(width: number, height: number, from: Rgb, to: Rgb, noise: number, seed: number): Buffer {
  const png = new PNG({ width, height, colorType: 2, inputColorType: 2, inputHasAlpha: false });
  const data = Buffer.alloc(width * height * 3);
  const rand = prng(seed);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width) * 0.6 + (y / height) * 0.4;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const base = from[c]! + (to[c]! - from[c]!) * t;
        data[i + c] = Math.max(0, Math.min(255, Math.round(base + (rand() - 0.5) * 2 * noise)));
      }
    }
  }
  png.data = data;
  return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, deflateLevel: 6 });
}

type GradientSpec = Parameters<typeof gradientPng>;
const GENERATED: Record<string, GradientSpec> = {
  // ~2 MB: the heavy hero that should explain beta's slow LCP.
  "/beta/img/hero.png": [1400, 800, [120, 45, 10], [249, 115, 22], 10, 1],
  "/beta/img/roast-1.png": [480, 360, [60, 30, 15], [180, 90, 40], 12, 2],
  "/beta/img/roast-2.png": [480, 360, [40, 25, 20], [200, 120, 60], 12, 3],
  "/beta/img/roast-3.png": [480, 360, [90, 40, 10], [240, 150, 70], 12, 4],
  "/beta/img/roast-4.png": [480, 360, [30, 20, 15], [150, 80, 30], 12, 5],
  "/beta/img/story.png": [640, 480, [50, 30, 20], [230, 120, 40], 16, 6],
};
const generatedCache = new Map<string, Buffer>();

// Making these takes seconds of CPU (far more on a busy machine), and the fixture server shares
// its thread with the test: made on first request, they stalled every other page it served, in
// the middle of captures with short limits. So they are made once per machine, before the server
// answers anything, and kept on disk keyed by their spec (same spec, same bytes).
const GENERATED_DIR = join(tmpdir(), "design-intel-fixture-images");
const GENERATOR_VERSION = 1;

function generated(path: string): Buffer | null {
  const spec = GENERATED[path];
  if (!spec) return null;
  let buf = generatedCache.get(path);
  if (buf) return buf;
  const file = join(GENERATED_DIR, `${Bun.hash(JSON.stringify([GENERATOR_VERSION, spec])).toString(36)}.png`);
  if (existsSync(file)) {
    buf = readFileSync(file);
  } else {
    buf = gradientPng(...spec);
    mkdirSync(GENERATED_DIR, { recursive: true });
    // Write then rename: another test process on this machine may be reading or making the same file.
    const partial = `${file}.${process.pid}.${crypto.randomUUID()}`;
    writeFileSync(partial, buf);
    renameSync(partial, file);
  }
  generatedCache.set(path, buf);
  return buf;
}

// A real font file for @font-face, borrowed from the system so nothing binary is checked in.
const FONT_CANDIDATES = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
  "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
  "/usr/share/fonts/TTF/DejaVuSerif-Bold.ttf",
];

// ---- misbehaving pages ---------------------------------------------------------------------------

const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": HTML_TYPE, "cache-control": "no-store", ...headers } });

const NOT_FOUND_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head>
<body style="font-family: sans-serif; padding: 4rem"><h1>404: nothing here</h1><p>The page you asked for does not exist.</p></body></html>`;

const INFINITE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Endless feed</title>
<meta name="description" content="A feed that loads more posts forever.">
<style>body{margin:0;font-family:sans-serif;background:#f8fafc}.post{height:600px;margin:0 auto 24px;max-width:720px;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px;box-sizing:border-box}#sentinel{height:1px}</style></head>
<body><h1 style="text-align:center">Endless feed</h1><div id="feed"></div><div id="sentinel"></div>
<script>
let n = 0;
const feed = document.getElementById("feed");
function more() {
  for (let i = 0; i < 5; i++) {
    const post = document.createElement("article");
    post.className = "post";
    post.innerHTML = "<h2>Post " + (++n) + "</h2><p>Another post appears whenever you reach the bottom of the feed.</p>";
    feed.appendChild(post);
  }
}
more();
new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) more(); }, { rootMargin: "2000px" })
  .observe(document.getElementById("sentinel"));
</script></body></html>`;

function neverEndingPage(): Response {
  // Headers and the start of the document arrive, the rest never does: no DOMContentLoaded, no load.
  let timer: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("<!doctype html><html><head><title>Still loading</title></head><body><p>Loading"));
      timer = setInterval(() => {
        try {
          controller.enqueue(new TextEncoder().encode("."));
        } catch {
          clearInterval(timer);
        }
      }, 500);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(stream, { headers: { "content-type": HTML_TYPE } });
}

async function special(url: URL, origin: string): Promise<Response | null> {
  switch (url.pathname) {
    case "/_special/never":
      return neverEndingPage();
    case "/_special/infinite":
      return html(INFINITE_PAGE);
    case "/_special/slow": {
      const ms = Math.min(60_000, Number(url.searchParams.get("ms")) || 3000);
      await Bun.sleep(ms);
      return html(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slow page</title></head><body><h1>Finally here</h1><p>This page took ${ms} ms to answer.</p></body></html>`,
      );
    }
    case "/_special/hang": {
      // Never answers at all (used as an image that keeps `load` from ever firing).
      await new Promise(() => {});
      return null;
    }
    case "/_special/hanging-asset-page":
      return html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hanging asset</title></head>
<body><h1>Mostly loaded</h1><p>One image on this page never finishes downloading.</p><img src="/_special/hang" alt="never arrives" width="200" height="100"></body></html>`);
    case "/_special/redirect": {
      const to = url.searchParams.get("to") ?? "/";
      return new Response(null, { status: 302, headers: { location: to } });
    }
    case "/_special/status": {
      const code = Number(url.searchParams.get("code")) || 500;
      return html(`<!doctype html><html><head><title>Error ${code}</title></head><body><h1>Error ${code}</h1></body></html>`, code);
    }
    case "/_special/probe": {
      // Reaches for `to` through every channel a page has: subresources, a frame, fetch, a socket,
      // a worker and a service worker. The SSRF tests check none of them got through.
      const to = url.searchParams.get("to") ?? "/_special/secret";
      const via = (channel: string) => `${to}${to.includes("?") ? "&" : "?"}via=${channel}`;
      const attr = (channel: string) => Bun.escapeHTML(via(channel));
      const js = (channel: string) => JSON.stringify(via(channel)).replace(/</g, "\\u003c");
      return html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Probe</title>
<link rel="stylesheet" href="${attr("css")}"></head><body><h1>Probe page</h1>
<img src="${attr("img")}" alt="probe"><iframe src="${attr("frame")}" title="probe"></iframe>
<script src="${attr("script")}"></script>
<script>
fetch(${js("fetch")}).catch(() => {});
try { new WebSocket(${js("ws")}.replace(/^http/, "ws")); } catch (e) {}
try { new Worker(URL.createObjectURL(new Blob(["fetch(" + JSON.stringify(${js("worker")}) + ").catch(() => {})"]))); } catch (e) {}
try { navigator.serviceWorker && navigator.serviceWorker.register("/_special/sw.js").catch(() => {}); } catch (e) {}
</script></body></html>`);
    }
    case "/_special/sw.js":
      return new Response(
        `self.addEventListener("install", () => fetch(${JSON.stringify(url.searchParams.get("to") ?? "/_special/secret")}));`,
        {
          headers: { "content-type": "text/javascript" },
        },
      );
    case "/_special/secret":
      return new Response("internal secret", { headers: { "content-type": "text/plain" } });
    case "/_special/display.ttf": {
      const font = FONT_CANDIDATES.find((p) => existsSync(p));
      return font ? new Response(Bun.file(font), { headers: { "content-type": "font/ttf" } }) : new Response("no font", { status: 404 });
    }
    case "/_special/origin":
      return new Response(origin, { headers: { "content-type": "text/plain" } });
    default:
      return null;
  }
}

/** A site's own dynamic pages (a login, say), asked before the files; null: not one of its pages. */
export type FixtureHandler = (req: Request, url: URL) => Response | null | Promise<Response | null>;

export function startFixtureServer(root = SITES_DIR, handle?: FixtureHandler): FixtureServer {
  for (const path of Object.keys(GENERATED)) generated(path);
  const counts = new Map<string, number>();
  const searches = new Map<string, string[]>();
  const base = resolve(root);
  let origin = "";
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
      searches.set(url.pathname, [...(searches.get(url.pathname) ?? []), url.search]);
      const answer = (await handle?.(req, url)) ?? (await special(url, origin));
      if (answer) return answer;

      const made = generated(url.pathname);
      if (made) return new Response(new Uint8Array(made), { headers: { "content-type": "image/png", "cache-control": "no-store" } });

      let decoded: string;
      try {
        decoded = decodeURIComponent(url.pathname);
      } catch {
        return html(NOT_FOUND_PAGE, 404);
      }
      let path = normalize(join(base, decoded));
      if (path !== base && !path.startsWith(base + sep)) return html(NOT_FOUND_PAGE, 404);
      if (existsSync(path) && statSync(path).isDirectory()) {
        if (!url.pathname.endsWith("/")) return new Response(null, { status: 301, headers: { location: `${url.pathname}/` } });
        path = join(path, "index.html");
      }
      if (!existsSync(path) || !statSync(path).isFile()) return html(NOT_FOUND_PAGE, 404);
      return new Response(Bun.file(path), {
        headers: { "content-type": contentType(path), "cache-control": "no-store" },
      });
    },
  });
  origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    port: server.port!,
    url: (path) => `${origin}${path.startsWith("/") ? path : `/${path}`}`,
    hits: (path) => counts.get(path) ?? 0,
    queries: (path) => [...(searches.get(path) ?? [])],
    close: async () => {
      await server.stop(true);
    },
  };
}

if (import.meta.main) {
  // `bun tests/support/fixture-server.ts` serves the fixtures for a look in a browser.
  const s = startFixtureServer();
  console.log(`fixtures at ${s.origin}/alpha/ /alpha-edited/ /beta/ /gamma/`);
}
