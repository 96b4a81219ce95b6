// Time from starting the compiled binary to its first served page: spawn dist/design-intel on a free
// loopback port with an empty DATA_DIR (so migrations run, as on a first boot), poll GET / until it
// answers 200, report the median of several starts.
// Run: bun run build && bun bench/startup.bench.ts   (BENCH_ROUNDS=5 by default)
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "#tests/support/server";

const binary = process.env.BENCH_BINARY ?? join(import.meta.dir, "../dist/design-intel");
if (!existsSync(binary)) throw new Error("dist/design-intel is missing: run `bun run build` first");
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const POLL_MS = 5;
const GIVE_UP_MS = 30_000;

async function firstPage(): Promise<number> {
  const port = freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "di-startup-"));
  const url = `http://127.0.0.1:${port}/`;
  const started = performance.now();
  const proc = Bun.spawn([binary], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production" },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    while (performance.now() - started < GIVE_UP_MS) {
      if (proc.exitCode !== null) throw new Error(`the binary exited with ${proc.exitCode}`);
      try {
        const res = await fetch(url);
        await res.arrayBuffer(); // the whole page, not just its headers
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await Bun.sleep(POLL_MS);
    }
    throw new Error(`no page within ${GIVE_UP_MS} ms`);
  } finally {
    proc.kill("SIGTERM");
    await Promise.race([proc.exited, Bun.sleep(10_000)]);
    if (proc.exitCode === null) proc.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const times: number[] = [];
for (let i = 0; i < rounds; i++) times.push(await firstPage());
const sorted = [...times].sort((a, b) => a - b);
console.log(`binary: ${binary}`);
console.log(`start -> first 200 on GET /: ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
console.log(`median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms over ${rounds} starts (fresh DATA_DIR each)`);
