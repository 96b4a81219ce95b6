// What a remote browser costs a capture: the same fixture pages captured by a pool that launches
// its own Chromium and by one connected to a browser server (`playwright-core launch-server` with
// the same Chromium, in its own process on loopback, as docs/scaling.md runs it on a browser host),
// one page at a time each, rounds interleaved and their order alternated so machine load hits both
// alike. The remote pool's pages also go through the worker's egress proxy (with its password), as
// every remote capture does; the local pool's, with private targets allowed, do not.
// Run: bun bench/remote-browsers.bench.ts   (needs Chromium; serves the fixture sites on 127.0.0.1)
//      BENCH_ROUNDS=n (default 5)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium } from "#server/lib/chromium";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { CHROMIUM_ARGS } from "#server/lib/chromium";
import { startFixtureServer } from "#tests/support/fixture-server";
import { verdict } from "./lib";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PAGES = ["/alpha/", "/gamma/", "/beta/"];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const fixtures = startFixtureServer();
const dir = mkdtempSync(join(tmpdir(), "remote-bench-"));
const executablePath = findChromium(process.env.CHROMIUM_PATH);
if (!executablePath) throw new Error("no Chromium");

/** A browser server in a process of its own (in this one, its protocol work would share the fixture server's thread). */
async function launchServerProcess() {
  const config = join(dir, "browser-server.json");
  writeFileSync(
    config,
    JSON.stringify({ executablePath, headless: true, args: CHROMIUM_ARGS, host: "127.0.0.1", port: 0, wsPath: "/bench" }),
  );
  const cli = join(import.meta.dir, "../node_modules/playwright-core/cli.js");
  const proc = Bun.spawn(["bun", cli, "launch-server", "--browser", "chromium", "--config", config], { stdout: "pipe", stderr: "inherit" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`launch-server exited: ${out}`);
    out += new TextDecoder().decode(value);
  }
  return { proc, endpoint: out.trim() };
}

const browserServer = await launchServerProcess();
const common = { concurrency: 1, allowPrivate: true, timingSamples: 1 } as const;
const pools = {
  local: new CapturePool({ ...common, chromiumPath: executablePath }),
  remote: new CapturePool({
    ...common,
    chromiumPath: null,
    remote: { endpoints: [browserServer.endpoint], egress: { listen: "127.0.0.1", advertise: "127.0.0.1" } },
  }),
};
const ms: Record<keyof typeof pools, number[]> = { local: [], remote: [] };

async function round(kind: keyof typeof pools) {
  const started = performance.now();
  for (const path of PAGES) {
    const outcome = await pools[kind].submit("bench", {
      url: fixtures.url(path),
      viewport: "desktop",
      screenshotPath: join(dir, `${kind}.png`),
    });
    if (!outcome.ok) throw new Error(`${kind} ${path}: ${outcome.reason}`);
  }
  return (performance.now() - started) / PAGES.length;
}

try {
  console.log(`load average before: ${load()}`);
  // Warm-up: each pool's browser started (or connected) and the page script built.
  await round("local");
  await round("remote");
  for (let r = 0; r < ROUNDS; r++) {
    const order: (keyof typeof pools)[] = r % 2 ? ["remote", "local"] : ["local", "remote"];
    for (const kind of order) ms[kind].push(await round(kind));
    console.log(
      `round ${r + 1}: local ${ms.local.at(-1)!.toFixed(0)} ms/page, remote ${ms.remote.at(-1)!.toFixed(0)} ms/page (load ${load()})`,
    );
  }
  const local = median(ms.local);
  const remote = median(ms.remote);
  console.log(
    `median per page: local ${local.toFixed(0)} ms (${(60_000 / local).toFixed(1)} pages/min), remote ${remote.toFixed(0)} ms (${(60_000 / remote).toFixed(1)} pages/min)`,
  );
  verdict("remote pages per minute / local pages per minute", local / remote, { atLeast: 0.9 });
  console.log(`load average after: ${load()}`);
} finally {
  await pools.local.close();
  await pools.remote.close();
  browserServer.proc.kill();
  await browserServer.proc.exited;
  await fixtures.close();
  rmSync(dir, { recursive: true, force: true });
}
