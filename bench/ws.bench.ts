// The live feed under load: N sockets connect to a real server (the app, /ws and the LiveHub
// wired as in src/main.ts), one broadcast is timed from publish to every delivery (p50/p99), then
// a burst measures how many messages per second the feed carries to all N.
// Run: bun bench/ws.bench.ts   (BENCH_SOCKETS="1000,5000" BENCH_BURST=200 to change the load)
import { createApp, createServices } from "#server/app";
import { webFrontEnd } from "#server/ssr";
import { openDatabase } from "#server/db/connection";
import { migrateSql, sqliteSql } from "#server/db/sql";
import { loadEnv } from "#server/env";
import { liveSockets } from "#server/live/ws";
import { REFRESH_COOKIE } from "#server/modules/auth";
import { join } from "node:path";
import { verdict } from "./lib";

const sizes = (process.env.BENCH_SOCKETS ?? "100,1000,5000").split(",").map(Number);
const burst = Number(process.env.BENCH_BURST ?? 100);
const now = () => performance.timeOrigin + performance.now();

const db = sqliteSql(openDatabase(":memory:"));
await migrateSql(db);
const deps = {
  db,
  env: loadEnv({ NODE_ENV: "production" }),
  secret: new TextEncoder().encode("bench-secret-bench-secret-bench-secret-1"),
  log: () => {},
};
const services = createServices(deps);
const app = createApp(deps, services, webFrontEnd);
const live = liveSockets({
  hub: services.live,
  userForAccessToken: services.auth.userForAccessToken,
  userForRefreshToken: services.auth.userForRefreshToken,
  refreshCookie: REFRESH_COOKIE,
});
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  routes: live.routes,
  fetch: (req) => app.handle(req),
  websocket: live.websocket,
});
const base = `http://127.0.0.1:${server.port}`;
const signup = await app.handle(
  new Request(`${base}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "bench@example.com", password: "correct-horse-battery" }),
  }),
);
const { accessToken } = (await signup.json()) as { accessToken: string };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function round(n: number) {
  const child = Bun.spawn(["bun", join(import.meta.dir, "ws-client.ts"), `ws://127.0.0.1:${server.port}/ws`, accessToken, String(n)], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const lines = (async function* () {
    let buf = "";
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>) {
      buf += new TextDecoder().decode(chunk);
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        yield JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    }
  })();
  const next = async () => (await lines.next()).value as Record<string, unknown>;
  const send = (o: unknown) => {
    child.stdin.write(`${JSON.stringify(o)}\n`);
    child.stdin.flush();
  };

  const t0 = now();
  const ready = await next();
  const connectMs = now() - t0;
  while (services.live.size < Number(ready.opened)) await Bun.sleep(5);

  // One broadcast, timed per socket.
  send({ cmd: "reset", expected: 0 });
  await next();
  const sent = await services.live.deliver({ type: "SYSTEM_METRICS", payload: { kind: "probe", sentAt: now() } });
  send({ cmd: "collect" });
  const probe = await next();
  const lat = probe.latencies as number[];

  // A burst: `burst` messages to every socket, as fast as the hub publishes them.
  send({ cmd: "reset", expected: burst * sent });
  await next();
  const start = now();
  for (let i = 0; i < burst; i++) services.live.publish({ type: "SYSTEM_METRICS", payload: { kind: "burst", sentAt: now(), seq: i } });
  send({ cmd: "collect" });
  const b = await next();
  const seconds = ((b.last as number) - start) / 1000;
  send({ cmd: "close" });
  await next();
  await child.exited;
  while (services.live.size > 0) await Bun.sleep(5);

  console.log(
    `${String(n).padStart(6)} sockets: ${ready.opened} held (${ready.failed} failed) in ${connectMs.toFixed(0)} ms | ` +
      `1 broadcast to ${lat.length}: p50 ${pct(lat, 50).toFixed(2)} ms, p99 ${pct(lat, 99).toFixed(2)} ms, max ${Math.max(...lat).toFixed(2)} ms | ` +
      `burst ${burst} msgs: ${b.got}/${burst * sent} delivered in ${seconds.toFixed(2)} s = ${(burst / seconds).toFixed(0)} msgs/s to all (${((b.got as number) / seconds).toFixed(0)} deliveries/s)`,
  );
  // Every socket held gets every message; at 1,000 sockets a broadcast reaches the last one fast
  // enough to feel live (the dashboards' own refresh is 5 s; 100 ms is far inside it).
  verdict(`${n} sockets: share that received the broadcast`, lat.length / Number(ready.opened), { atLeast: 1 });
  verdict(`${n} sockets: share of the burst delivered`, (b.got as number) / (burst * sent), { atLeast: 1 });
  if (n === 1000) verdict("1,000 sockets: broadcast p99 (ms)", pct(lat, 99), { atMost: 100 });
}

try {
  for (const n of sizes) await round(n);
} finally {
  server.stop(true);
}
