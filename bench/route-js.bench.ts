// Gzip JavaScript each page downloads, as the server serves it: the document's preloaded and booted
// scripts (entry, root chunks, the matched routes' chunks and their static imports), gzipped as sent.
// Run: bun scripts/build-client.ts && bun bench/route-js.bench.ts
// Goal (issue 14): `/` at most 120 KB gzip; every app page its own chunk.
import { makeTestApp } from "#tests/support/app";
import { APP_PAGES, LANDING_JS_BUDGET_BYTES, PUBLIC_PAGES, routeJs } from "#tests/support/route-js";
import { verdict } from "./lib";

const t = makeTestApp();
const user = await t.signup();
const comparison = (await t.call("POST", "/api/comparisons", { headers: t.auth(user.token), body: { name: "Bench" } })).json.id as string;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
for (const p of PUBLIC_PAGES) {
  const r = await routeJs(t, p);
  console.log(`${p.padEnd(28)} ${kb(r.gzipBytes).padStart(10)}  (${r.files.length} files)`);
}
for (const p of [...APP_PAGES, `/comparison/${comparison}/view`]) {
  const r = await routeJs(t, p, user.cookie);
  console.log(`${p.replace(comparison, ":id").padEnd(28)} ${kb(r.gzipBytes).padStart(10)}  (${r.files.length} files, signed in)`);
}
verdict("/ gzip JS (KB)", (await routeJs(t, "/")).gzipBytes / 1000, { atMost: LANDING_JS_BUDGET_BYTES / 1000 });
