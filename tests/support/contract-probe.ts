// Run as a script (`NODE_ENV=production bun tests/support/contract-probe.ts`) by
// tests/api/production-contract.test.ts: builds an in-process app in whatever mode NODE_ENV gives
// and prints what differs between modes by design (response validators) and what must not (the
// OpenAPI document, the answers).
import { makeTestApp } from "./app";

const t = makeTestApp();
const user = await t.signup();
await t.call("POST", "/api/comparisons", { body: { name: "Probe" }, headers: t.auth(user.token) });
const list = await t.call("GET", "/api/comparisons", { headers: t.auth(user.token) });
const doc = (await t.call("GET", "/api/openapi.json")).json as unknown;
const route = (t.app.routes as unknown as { method: string; path: string; compile(): (c: unknown) => unknown }[]).find(
  (r) => r.method === "GET" && r.path === "/api/comparisons",
)!;
console.log(
  JSON.stringify({
    mode: process.env.NODE_ENV,
    listStatus: list.status,
    listNames: (list.json as { name: string }[]).map((c) => c.name),
    // Elysia's compiled route: a response check is a `.Validate(` or `.Check(` call in it.
    checksResponses: /response\[\d+\]\.(?:Validate|Check)\(/.test(route.compile().toString()),
    doc,
  }),
);
