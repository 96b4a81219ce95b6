// Real captures through the deployment's path against the single process, as issue 30 sets it:
//   cluster   PostgreSQL, an S3 endpoint, one Playwright browser server, one `serve` (drives the
//             run, captures nothing itself) and one `worker` (claims the capture jobs, captures on
//             the browser server, hands screenshots over through the bucket)
//   embedded  the single binary on its SQLite file, its own browsers, files under DATA_DIR
// Each times the same comparison from POST /start to the run's end heard over the live socket,
// alternating rounds so the machine's load falls on both alike, both warm (browsers launched or
// connected before the first run), the product's capture settings on both. Pages a minute, and
// the ratio cluster / embedded: target at least 0.9. Also each side's CPU a page (every process of
// it, Chromium included, PostgreSQL and the S3 endpoint left out): the sizing figure of docs/scaling.md.
// Run: bun bench/cluster-capture.bench.ts   (BENCH_ROUNDS=3 by default; needs Chromium and PostgreSQL's binaries)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCluster } from "#tests/support/cluster";
import { startFixtureServer } from "#tests/support/fixture-server";
import { pgMissing } from "#tests/support/postgres";
import { startServer } from "#tests/support/server";
import { loadNow, median, verdict } from "./lib";
import { descendants } from "./proc";

if (pgMissing) throw new Error(pgMissing);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const fixtures = startFixtureServer();
const URLS = ["alpha", "beta", "gamma"].map((s) => fixtures.url(`/${s}/`));
const PAGES = URLS.length * 2;
// The product's own capture settings on both sides (the test defaults of one timing load and lazy browsers off).
const product = { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_LAZY: "", CAPTURE_TIMING_SAMPLES: "" };

/** CPU µs of a process and every process below it, including children already reaped (cutime, cstime). */
function treeCpuMicros(roots: number[]): number {
  let ticks = 0;
  for (const pid of [...roots, ...roots.flatMap((r) => descendants(r).map((p) => p.pid))]) {
    try {
      const rest = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = rest.slice(rest.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // exited between the listing and the read
    }
  }
  return (ticks * 1e6) / 100;
}

interface Side {
  name: string;
  base: string;
  pids: () => number[];
  token: string;
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown) {
  const r = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", origin: base, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<any>;
}

/** One run of a fresh comparison of URLS: milliseconds from POST /start to its end over the socket, and CPU µs spent meanwhile. */
async function timedRun(side: Side): Promise<{ ms: number; cpu: number }> {
  const cmp = await call(side.base, "POST", "/api/comparisons", side.token, { name: "bench" });
  for (const [i, url] of URLS.entries())
    await call(side.base, "POST", `/api/comparisons/${cmp.id}/targets`, side.token, { url, label: `site ${i + 1}` });
  const ws = new WebSocket(`${side.base.replace("http", "ws")}/ws`, {
    protocols: ["design-intel.v1", `bearer.${side.token}`],
    headers: { origin: side.base },
  } as never);
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  const ended = new Promise<string>((resolve) => {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as { type: string; payload?: { comparisonId?: string; status?: string } };
      const p = m.payload;
      if (m.type === "COMPARISON_STATUS" && p && p.comparisonId === cmp.id && p.status !== "running") resolve(p.status!);
    };
  });
  const cpu0 = treeCpuMicros(side.pids());
  const t0 = performance.now();
  await call(side.base, "POST", `/api/comparisons/${cmp.id}/start`, side.token);
  const status = await ended;
  const ms = performance.now() - t0;
  const cpu = treeCpuMicros(side.pids()) - cpu0;
  ws.close();
  if (status !== "completed") throw new Error(`${side.name}: run ended ${status}`);
  return { ms, cpu };
}

const signup = async (base: string) =>
  (await call(base, "POST", "/api/auth/signup", undefined, { email: `bench-${crypto.randomUUID()}@example.com`, password: "password-1" }))
    .accessToken as string;

const dir = mkdtempSync(join(tmpdir(), "bench-cluster-"));
const embedded = await startServer({ env: product });
const cluster = await startCluster({ dir, count: { serve: 1, worker: 1, scheduler: 0 }, browsers: 1, env: product });
try {
  const serve = cluster.of("serve")[0]!;
  const worker = cluster.of("worker")[0]!;
  const browserPid = cluster.browsers[0]!.process().pid!;
  const sides: Side[] = [
    { name: "embedded", base: embedded.url, pids: () => [embedded.proc.pid], token: await signup(embedded.url) },
    {
      name: "cluster",
      base: serve.url,
      pids: () => [serve.server.proc.pid, worker.server.proc.pid, browserPid],
      token: await signup(serve.url),
    },
  ];
  // One run each first: browsers warm, the first page's fonts and caches loaded, as on a deployment at work.
  for (const side of sides) await timedRun(side);
  const results: Record<string, { ms: number; cpu: number }[]> = { embedded: [], cluster: [] };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const r = await timedRun(side);
      results[side.name]!.push(r);
      console.log(
        `round ${round + 1} ${side.name}: ${(r.ms / 1000).toFixed(1)} s, ${((PAGES * 60_000) / r.ms).toFixed(1)} pages/min, ${(r.cpu / PAGES / 1e6).toFixed(2)} CPU-s a page`,
      );
    }
  }
  const perMinute = (name: string) => (PAGES * 60_000) / median(results[name]!.map((r) => r.ms));
  const cpuPerPage = (name: string) => median(results[name]!.map((r) => r.cpu)) / PAGES / 1e6;
  console.log(`\n${PAGES} pages a run (${URLS.length} fixture sites × desktop and mobile), ${rounds} rounds, load ${loadNow()}`);
  for (const name of ["embedded", "cluster"])
    console.log(`${name}: ${perMinute(name).toFixed(1)} pages/min (median), ${cpuPerPage(name).toFixed(2)} CPU-s a page`);
  verdict("cluster pages/min ÷ embedded pages/min", perMinute("cluster") / perMinute("embedded"), { atLeast: 0.9 });
} finally {
  await cluster.stop();
  await embedded.stop();
  await fixtures.close();
  rmSync(dir, { recursive: true, force: true });
}
