// Baseline for bench/api.bench.ts: a bare Bun.serve answering every request with the JSON body in
// BODY_FILE, serialised per request like a real handler would — no routing, auth, database. With
// HEADERS_FILE (a JSON object) it also sends those headers: the same bytes our server answers with.
const data: unknown = JSON.parse(await Bun.file(process.env.BODY_FILE!).text());
const headers: Record<string, string> | undefined = process.env.HEADERS_FILE
  ? (JSON.parse(await Bun.file(process.env.HEADERS_FILE).text()) as Record<string, string>)
  : undefined;
let n = 0;

Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  fetch: headers
    ? // A fresh request id each time, as ours sends (same length).
      () =>
        Response.json(data, {
          headers: { ...headers, "x-request-id": `${headers["x-request-id"]!.slice(0, 24)}${(n++).toString(16).padStart(12, "0")}` },
        })
    : () => Response.json(data),
});
