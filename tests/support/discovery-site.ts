// Serves tests/fixtures/discovery at the root of its own origin (robots.txt and sitemaps live at
// the root), on 127.0.0.1 with a random port, and logs every request so tests can show a path
// was never fetched. `{{origin}}` in a file becomes the server's origin; `X.gz` is file X gzipped.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, normalize, resolve, sep } from "node:path";
import { contentType } from "./static-files";

export const DISCOVERY_SITE_DIR = resolve(import.meta.dir, "../fixtures/discovery");

export interface LoggedRequest {
  path: string;
  userAgent: string;
}

export interface DiscoverySite {
  origin: string;
  /** Every request, in arrival order. */
  log: LoggedRequest[];
  /** The request paths (pathname and query), in arrival order. */
  paths(): string[];
  close(): Promise<void>;
}

function fileFor(base: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const path = normalize(join(base, decoded));
  if (path !== base && !path.startsWith(base + sep)) return null;
  for (const candidate of [path, `${path}.html`, join(path, "index.html")])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

export function startDiscoverySite(root = DISCOVERY_SITE_DIR): DiscoverySite {
  const base = resolve(root);
  const log: LoggedRequest[] = [];
  let origin = "";
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      log.push({ path: url.pathname + url.search, userAgent: req.headers.get("user-agent") ?? "" });
      const gz = url.pathname.endsWith(".gz");
      const file = fileFor(base, gz ? url.pathname.slice(0, -3) : url.pathname);
      if (!file)
        return new Response("<!doctype html><title>Not found</title><h1>Not found</h1>", {
          status: 404,
          headers: { "content-type": "text/html" },
        });
      const text = readFileSync(file, "utf8").replaceAll("{{origin}}", origin);
      if (gz) return new Response(Bun.gzipSync(new TextEncoder().encode(text)), { headers: { "content-type": "application/gzip" } });
      return new Response(text, { headers: { "content-type": file.endsWith(".xml") ? "application/xml" : contentType(file) } });
    },
  });
  origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    log,
    paths: () => log.map((r) => r.path),
    close: async () => {
      await server.stop(true);
    },
  };
}
