// Baseline for bench/api.bench.ts: a bare Bun.serve answering every request with the JSON body in
// BODY_FILE, serialised per request like a real handler would — no routing, auth, database or headers.
const data: unknown = JSON.parse(await Bun.file(process.env.BODY_FILE!).text());

Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  fetch: () => Response.json(data),
});
