// Baseline for bench/ssr.bench.ts: the same route tree rendered with bare renderToReadableStream
// in a bare Bun.serve — no Elysia, no session lookup, no security headers, no head template.
import { renderToReadableStream } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { routes } from "#web/routes";

const handler = createStaticHandler(routes);
const ctx = { user: null, maintenance: false, fetchApi: async () => new Response("{}") };

Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  async fetch(req) {
    if (new URL(req.url).pathname === "/json") return Response.json({ ok: true });
    const context = await handler.query(req, { requestContext: ctx });
    if (context instanceof Response) return context;
    const router = createStaticRouter(handler.dataRoutes, context);
    const stream = await renderToReadableStream(<StaticRouterProvider router={router} context={context} />);
    return new Response(stream, { headers: { "content-type": "text/html" } });
  },
});
