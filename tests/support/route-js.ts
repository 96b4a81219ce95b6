// What a page makes the browser download in JavaScript: the scripts its document preloads and
// boots (the entry, the root's chunks, each matched route's chunk and their static imports), as
// the server serves them gzipped. Shared by the route-chunks test and bench/route-js.bench.ts.
import type { makeTestApp } from "./app";

export interface RouteJs {
  path: string;
  status: number;
  files: string[];
  gzipBytes: number;
}

/** Issue 14: `/` downloads at most 120 KB (gzip) of JavaScript on a normal load. */
export const LANDING_JS_BUDGET_BYTES = 120_000;

/** The pages served with the light marketing entry (web/features/marketing/pages.ts). */
export const MARKETING_PAGES = ["/", "/pricing", "/features", "/no-such-page"];

/** Every page in web/routes.tsx (app pages signed in); `:id` routes take `ids`. */
export const PUBLIC_PAGES = ["/", "/login", "/signup", "/pricing", "/features", "/no-such-page"];
export const APP_PAGES = [
  "/dashboard",
  "/comparison",
  "/trends",
  "/analytics",
  "/activity",
  "/tests",
  "/generate",
  "/settings",
  "/super-admin",
];

export async function routeJs(t: ReturnType<typeof makeTestApp>, path: string, cookie?: string): Promise<RouteJs> {
  const page = await t.app.handle(new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} }));
  const html = await page.text();
  const files = new Set<string>();
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+\.js)"/g)) files.add(m[1]!);
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+\.js)"/g)) files.add(m[1]!);
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)/g)) files.add(m[1]!);
  let gzipBytes = 0;
  for (const f of files) {
    const res = await t.app.handle(new Request(`http://localhost${f}`, { headers: { "accept-encoding": "gzip" } }));
    if (res.status !== 200) throw new Error(`${path}: ${f} answered ${res.status}`);
    gzipBytes += (await res.arrayBuffer()).byteLength;
  }
  return { path, status: page.status, files: [...files], gzipBytes };
}
