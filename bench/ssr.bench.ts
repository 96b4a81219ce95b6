// SSR throughput of `/` on our server vs the same tree through bare renderToReadableStream, and a bare
// Bun.serve JSON endpoint for scale, measured side by side with wrk. Run: bun bench/ssr.bench.ts
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, startProc, wrk } from "./lib";

const root = join(import.meta.dir, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const ours = await startProc(["bun", join(root, "src/main.ts")], { NODE_ENV: "production", DATA_DIR: mkdtempSync(join(tmpdir(), "di-bench-")) }, "/api/health");
const bare = await startProc(["bun", join(root, "bench/bare-ssr-server.tsx")], { NODE_ENV: "production" }, "/json");
try {
  for (const u of [ours.url, bare.url]) wrk(u + "/", { seconds: 1 }); // warm up
  const a = wrk(ours.url + "/", { seconds });
  const b = wrk(bare.url + "/", { seconds });
  const j = wrk(bare.url + "/json", { seconds });
  console.log(`ours  GET /            ${fmt(a)}`);
  console.log(`bare  renderToReadable ${fmt(b)}`);
  console.log(`bare  Bun.serve JSON   ${fmt(j)}`);
  console.log(`ratio ours/bare-ssr = ${(a.rps / b.rps).toFixed(2)} (target >= 0.7)`);
} finally {
  ours.proc.kill();
  bare.proc.kill();
}
