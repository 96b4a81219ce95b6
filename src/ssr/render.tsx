import { renderToReadableStream } from "react-dom/server";
import { StrictMode } from "react";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from "react-router";
import { routes } from "#web/routes";
import { themeBootScript } from "#web/features/theme/store";
import type { RootData } from "#web/features/auth/use-session";
import { MarketingRoot } from "#web/marketing-root";
import { isMarketingPage } from "#web/features/marketing/pages";
import type { ServerLoaderContext } from "#web/lib/loader-context";
import { securityHeaders } from "#server/http/security-headers";
import { clientManifest } from "./assets";

const handler = createStaticHandler(routes);
const encoder = new TextEncoder();

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The deepest route's `handle.title` (a string, or a function of its loader data). */
function pageTitle(context: StaticHandlerContext): string {
  for (const m of [...context.matches].reverse()) {
    const t = (m.route.handle as { title?: unknown } | undefined)?.title;
    const title = typeof t === "function" ? t(context.loaderData[m.route.id]) : t;
    if (typeof title === "string" && title) return `${title} · Design Intel`;
  }
  return "Design Intel";
}

/**
 * What the matched routes' handles add to the document: response headers (`handle.headers`) and a
 * robots directive (`handle.robots`, also sent as a meta tag). The shared results page uses both.
 */
function documentPolicy(context: StaticHandlerContext): { headers: Record<string, string>; robots: string | null } {
  const headers: Record<string, string> = {};
  let robots: string | null = null;
  for (const m of context.matches) {
    const h = m.route.handle as { headers?: unknown; robots?: unknown } | undefined;
    if (h?.headers && typeof h.headers === "object") Object.assign(headers, h.headers);
    if (typeof h?.robots === "string") robots = h.robots;
  }
  return { headers, robots };
}

/** The chunks of the matched pages, so the browser fetches them with the entry, not after it. */
function routeChunks(context: StaticHandlerContext): string[] {
  const chunks = new Set<string>(clientManifest.entryChunks);
  for (const m of context.matches) for (const href of clientManifest.routes[m.route.id] ?? []) chunks.add(href);
  chunks.delete(clientManifest.entry);
  return [...chunks];
}

/** A marketing page's light entry, its imports and the page's own chunks (no data router, no app shell). */
function marketingChunks(pageId: string): string[] {
  const chunks = new Set<string>([...clientManifest.marketing.entryChunks, ...(clientManifest.routes[pageId] ?? [])]);
  chunks.delete(clientManifest.marketing.entry);
  return [...chunks];
}

/**
 * The marketing page the request matched, if it is one and rendered cleanly: those pages render and
 * hydrate without the data router (web/entry.marketing.tsx). An error goes through the router's
 * error handling as on every other page.
 */
function marketingPage(context: StaticHandlerContext) {
  const leaf = context.matches.at(-1)?.route;
  // The router keeps a route's Component as its `element`, resolved from the lazy module by now.
  if (context.errors || !leaf || !isMarketingPage(leaf.id) || !leaf.element) return null;
  return { id: leaf.id, element: leaf.element };
}

/** A JSON value as a JavaScript expression that is safe inside an inline <script>. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function head(nonce: string, title: string, entry: string, chunks: string[], robots: string | null): string {
  const css = clientManifest.css.map((href) => `<link rel="stylesheet" href="${href}">`).join("");
  const preload = chunks.map((href) => `<link rel="modulepreload" href="${href}">`).join("");
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
    (robots ? `<meta name="robots" content="${escapeHtml(robots)}">` : "") +
    `<link rel="icon" href="/favicon.svg" type="image/svg+xml">` +
    `<meta name="description" content="Design Intel compares competitor websites side by side: design, UX, copy and timing, with specific fixes.">` +
    `<link rel="modulepreload" href="${entry}">${preload}${css}` +
    `<script nonce="${nonce}">${themeBootScript}</script></head><body><div id="root">`
  );
}
const TAIL_BYTES = encoder.encode("</div></body></html>");

/**
 * Streams one page: the document head goes out at once, the React tree streams behind it,
 * and the router's hydration payload rides in a nonce'd script.
 */
export async function renderPage(
  request: Request,
  context: ServerLoaderContext,
  opts: { onError?: (error: unknown) => void } = {},
): Promise<Response> {
  const result = await handler.query(request, { requestContext: context });
  if (result instanceof Response) return result;

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const router = createStaticRouter(handler.dataRoutes, result);
  const notFound = result.matches.some((m) => m.route.id === "not-found");
  // Signed out, an app page renders the sign-in guard whatever its loader found: that page is
  // what the visitor gets, so its status is 200 (a loader's 404 would say nothing true to them).
  const guarded = !context.user && result.matches.some((m) => m.route.id === "app-layout");
  const status = notFound ? 404 : guarded ? 200 : result.statusCode;

  const marketing = marketingPage(result);
  const url = new URL(request.url);
  const root = result.loaderData.root as RootData;
  const entry = marketing ? clientManifest.marketing.entry : clientManifest.entry;
  const app = await renderToReadableStream(
    <StrictMode>
      {marketing ? (
        <MarketingRoot root={root} pathname={url.pathname}>
          {marketing.element}
        </MarketingRoot>
      ) : (
        <StaticRouterProvider router={router} context={result} nonce={nonce} />
      )}
    </StrictMode>,
    {
      nonce,
      // The light entry reads the root data where the app's router would (the auth store does
      // too), and which page to hydrate.
      bootstrapScriptContent: marketing
        ? `window.__staticRouterHydrationData=${scriptJson({ loaderData: { root } })};window.__marketingPage=${scriptJson(marketing.id)};`
        : undefined,
      bootstrapModules: [entry],
      onError(error) {
        (opts.onError ?? ((e) => console.error("ssr:", e)))(error);
      },
    },
  );

  const chunks = marketing ? marketingChunks(marketing.id) : routeChunks(result);
  const policy = documentPolicy(result);
  const headBytes = encoder.encode(head(nonce, pageTitle(result), entry, chunks, policy.robots));
  const body = app.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        controller.enqueue(headBytes);
      },
      flush(controller) {
        controller.enqueue(TAIL_BYTES);
      },
    }),
  );

  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      ...securityHeaders(nonce),
      ...policy.headers,
    },
  });
}
