// In-process cost of the authenticated list: the app built as src/boot/serve.ts builds it
// (production, a file database, the JSON-lines logger writing to a discarding stream), driven
// through app.handle in a loop; prints CPU µs per request (this process's: on PostgreSQL the
// cluster's own work is not in it). For profiling the hot path:
//   NODE_ENV=production bun --cpu-prof-md bench/api-inproc.ts
// BENCH_MODE=postgres runs it on a throwaway PostgreSQL cluster on loopback (tests/support/postgres.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, createServices } from "#server/app";
import { webFrontEnd } from "#server/ssr";
import { openStorage } from "#server/boot/storage";
import { loadEnv } from "#server/env";
import { createLogger, logFn } from "#server/lib/logger";
import { pgMissing, postgres, stopPostgres } from "#tests/support/postgres";
import { seedListUser } from "./list-user";

const onPostgres = process.env.BENCH_MODE === "postgres";
if (onPostgres && pgMissing) throw new Error(pgMissing);
const N = Number(process.env.N ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), "di-inproc-"));
try {
  const env = loadEnv({ ...process.env, NODE_ENV: "production", DATA_DIR: dir, PORT: "3999" });
  const DATABASE_URL = onPostgres ? await (await postgres()).freshDatabase() : undefined;
  const { db, secret } = await openStorage(dir, { DATABASE_URL });
  const logger = createLogger({ level: env.LOG_LEVEL, stream: { write() {} } });
  const deps = { db, env: { ...env, DATA_DIR: dir }, secret, log: logFn(logger), logger };
  const app = createApp(deps, createServices(deps), webFrontEnd);
  const token = await seedListUser((req) => app.handle(req), "http://127.0.0.1:3999", 10);
  // wrk's request: host, authorization, nothing else.
  const headers = { host: "127.0.0.1:3999", authorization: `Bearer ${token}` };
  const once = async () => {
    const res = await app.handle(new Request("http://127.0.0.1:3999/api/comparisons", { headers }));
    if (res.status !== 200) throw new Error(String(res.status));
    await res.arrayBuffer();
  };
  for (let i = 0; i < N / 10; i++) await once();
  for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
    const before = process.cpuUsage();
    for (let i = 0; i < N; i++) await once();
    const d = process.cpuUsage(before);
    console.log(`in-process: ${((d.user + d.system) / N).toFixed(2)} µs CPU / request (${N} requests)`);
  }
  await db.close();
} finally {
  await stopPostgres();
  rmSync(dir, { recursive: true, force: true });
}
