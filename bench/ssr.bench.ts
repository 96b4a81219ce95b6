// SSR throughput of `/` on our server vs the same tree through bare renderToReadableStream, and a bare
// Bun.serve JSON endpoint for scale, measured side by side with wrk. Run: bun bench/ssr.bench.ts
//
// Both servers are warmed up the same way before anything is measured: JavaScriptCore compiles hot
// code in tiers over the first seconds, and our server also launches its capture browsers right after
// boot. Then the two are measured in alternating rounds (ours, bare, ours, bare...) so load from
// anything else on the machine falls on both alike; the figures are medians over the rounds.
// BENCH_SECONDS (per round, default 5), BENCH_ROUNDS (default 3), BENCH_WARMUP (seconds, default 5).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, startProc, verdict, wrk, type WrkResult } from "./lib";

const root = join(import.meta.dir, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
const ours = await startProc(
  ["bun", join(root, "src/main.ts")],
  { NODE_ENV: "production", DATA_DIR: mkdtempSync(join(tmpdir(), "di-bench-")) },
  "/api/health",
);
const bare = await startProc(["bun", join(root, "bench/bare-ssr-server.tsx")], { NODE_ENV: "production" }, "/json");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const medianRun = (runs: WrkResult[]): WrkResult => {
  const rps = median(runs.map((r) => r.rps));
  return runs.find((r) => r.rps === rps)!;
};
const bytes = async (url: string) => (await (await fetch(url)).arrayBuffer()).byteLength;

try {
  for (let s = 0; s < warmup; s++) for (const u of [ours.url, bare.url]) wrk(u + "/", { seconds: 1 });
  const a: WrkResult[] = [];
  const b: WrkResult[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    a.push(wrk(ours.url + "/", { seconds }));
    b.push(wrk(bare.url + "/", { seconds }));
    ratios.push(a[r]!.rps / b[r]!.rps);
  }
  const j = wrk(bare.url + "/json", { seconds });
  console.log(`${rounds} alternating rounds of ${seconds} s after ${warmup} s of warm-up each; medians`);
  console.log(
    `ours  GET /            ${fmt(medianRun(a))}  [${a.map((r) => r.rps.toFixed(0)).join(", ")}]  ${await bytes(ours.url + "/")} bytes`,
  );
  console.log(
    `bare  renderToReadable ${fmt(medianRun(b))}  [${b.map((r) => r.rps.toFixed(0)).join(", ")}]  ${await bytes(bare.url + "/")} bytes`,
  );
  console.log(`bare  Bun.serve JSON   ${fmt(j)}`);
  console.log(`per-round ratios ours/bare-ssr: ${ratios.map((x) => x.toFixed(2)).join(", ")}`);
  verdict("SSR GET / / bare renderToReadableStream (req/s, median of rounds)", median(ratios), { atLeast: 0.7 });
} finally {
  ours.proc.kill();
  bare.proc.kill();
}
