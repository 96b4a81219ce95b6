process.env.NODE_ENV = "production";
import { Elysia } from "elysia";
import { renderToReadableStream } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { routes } from "../web/routes";
import { createApp, createServices } from "../src/app";
import { openDatabase } from "../src/db/connection";
import { migrate } from "../src/db/migrate";
import { loadEnv } from "../src/env";
import { renderPage } from "../src/ssr/render";
import { wrk } from "./lib";

const db = openDatabase(":memory:"); migrate(db);
const env = loadEnv({ NODE_ENV: "production", DATA_DIR: "/tmp/ssrb/data" });
const deps = { db, env, secret: new TextEncoder().encode("x".repeat(40)), log: () => {} } as any;
const services = createServices(deps);
const app = createApp(deps, services);
const handler = createStaticHandler(routes);
const ctx = { user: null, maintenance: false, fetchApi: async () => new Response("{}") };
async function bare(req: Request) {
  const context = await handler.query(req, { requestContext: ctx });
  if (context instanceof Response) return context;
  const router = createStaticRouter(handler.dataRoutes, context);
  const stream = await renderToReadableStream(<StaticRouterProvider router={router} context={context} />);
  return new Response(stream, { headers: { "content-type": "text/html" } });
}
const mini = new Elysia().get("/*", ({ request }) => renderPage(request, ctx as any));
const variants: Record<string, (r: Request) => Response | Promise<Response>> = {
  bare,
  renderPage: (r) => renderPage(r, ctx as any),
  miniElysia: (r) => mini.handle(r),
  fullApp: (r) => app.handle(r),
};
const only = process.argv[2]?.split(",");
const servers = Object.entries(variants).filter(([n]) => !only || only.includes(n)).map(([name, fetch]) => ({ name, s: Bun.serve({ port: 0, hostname: "127.0.0.1", fetch }) }));
const res: Record<string, number[]> = {};
const secs = Number(process.env.S ?? 3);
for (const { s } of servers) wrk(`http://127.0.0.1:${s.port}/`, { seconds: 1 });
for (let r = 0; r < Number(process.env.R ?? 3); r++) for (const { name, s } of servers) (res[name] ??= []).push(wrk(`http://127.0.0.1:${s.port}/`, { seconds: secs }).rps);
const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)]!;
for (const [n, v] of Object.entries(res)) console.log(n.padEnd(12), med(v).toFixed(0), "rps (", v.map((x) => x.toFixed(0)).join(" "), ") ratio", (med(v) / med(res.bare ?? v)).toFixed(2));
for (const { s } of servers) s.stop(true);
