// Soak: N analyses in a row on one server (2 fixture sites each, default CAPTURE_CONCURRENCY),
// sampling the server's memory, open descriptors, Chromium processes and data on disk as it goes.
// Passes when memory and descriptors are flat (last-decile median within 20% of the second
// decile's, read after every run) and, once idle, no page is left open and nothing runs beyond the
// pool's own browsers.
// Run: bun bench/soak.bench.ts   (SOAK_RUNS, default 200, ~4 s each; needs Chromium; loopback only)
import { startFixtureServer } from "#tests/support/fixture-server";
import { startServer } from "#tests/support/server";
import { apiClient } from "./client";
import { chromiumBrowsers, chromiumKinds, chromiumProcesses, dirMb, fdCount, median, rssMb } from "./proc";

const RUNS = Number(process.env.SOAK_RUNS ?? 200);
/** Every 10 runs, or often enough for a short soak to still have a sample in every decile. */
const EVERY = Math.max(1, Math.min(10, Math.floor(RUNS / 20)));
const CONCURRENCY = 2; // the server's default, left in place
const TOLERANCE = 0.2;
/** Access tokens live 15 minutes; sign in again well before. */
const RELOGIN_MS = 10 * 60_000;

const sites = startFixtureServer();
const server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_CONCURRENCY: "", CAPTURE_LAZY: "" } });
const api = apiClient(server.url);
const pid = server.proc.pid;

interface Sample {
  run: number;
  rss: number;
  fds: number;
  chromium: number;
  zombies: number;
  browsers: number;
  diskMb: number;
}
const sample = (run: number): Sample => {
  const chromium = chromiumProcesses(pid);
  return {
    run,
    rss: rssMb(pid),
    fds: fdCount(pid),
    chromium: chromium.live,
    zombies: chromium.zombies,
    browsers: chromiumBrowsers(pid),
    diskMb: dirMb(server.dataDir),
  };
};
const row = (s: Sample, extra = "") =>
  `${String(s.run).padStart(5)}  ${s.rss.toFixed(0).padStart(6)} MB  ${String(s.fds).padStart(4)} fds  ${String(s.chromium).padStart(3)} chromium (${s.browsers} browsers${s.zombies ? `, ${s.zombies} exited` : ""})  ${s.diskMb.toFixed(1).padStart(6)} MB on disk${extra}`;

/** Waits for the warm pool's browsers and lets their start-up settle. */
async function settled(): Promise<Sample> {
  for (let i = 0; i < 100 && chromiumBrowsers(pid) < CONCURRENCY; i++) await Bun.sleep(200);
  await Bun.sleep(3000);
  return sample(0);
}

let ok = true;
try {
  const email = "soak@example.com";
  let token = await api.signup(email);
  let tokenAt = Date.now();
  const id = await api.comparison(token, "Soak", [sites.url("/alpha/"), sites.url("/beta/")]);
  const idleBefore = await settled();
  const kindsBefore = chromiumKinds(pid);
  console.log(
    `soak: ${RUNS} analyses in a row (2 fixture sites x desktop + mobile), CAPTURE_CONCURRENCY=${CONCURRENCY}, sample every ${EVERY}`,
  );
  console.log("  run     server RSS   fds  Chromium                    data dir");
  console.log(row(idleBefore, "  (idle, before)"));

  const samples: Sample[] = [];
  // Memory and descriptors are cheap to read, so the stability check uses every run (GC makes RSS
  // a sawtooth; two points per decile would judge the phase, not the trend).
  const perRun: { rss: number; fds: number }[] = [];
  const durations: number[] = [];
  const t0 = performance.now();
  for (let run = 1; run <= RUNS; run++) {
    if (Date.now() - tokenAt > RELOGIN_MS) {
      token = await api.login(email);
      tokenAt = Date.now();
    }
    const started = performance.now();
    await api.start(token, id);
    let state = await api.state(token, id);
    while (state.status === "running") {
      await Bun.sleep(100);
      state = await api.state(token, id);
    }
    if (state.status !== "completed") throw new Error(`run ${run} ended ${state.status}: ${state.error}`);
    durations.push(performance.now() - started);
    perRun.push({ rss: rssMb(pid), fds: fdCount(pid) });
    if (run % EVERY === 0) {
      const s = sample(run);
      samples.push(s);
      console.log(row(s, `  run ${(durations.at(-1)! / 1000).toFixed(1)} s`));
    }
  }
  const total = performance.now() - t0;
  const idleAfter = await settled();
  console.log(row(idleAfter, "  (idle, after)"));

  const decile = (k: number) => perRun.slice(Math.floor(((k - 1) * RUNS) / 10), Math.floor((k * RUNS) / 10));
  const check = (name: string, pick: (s: { rss: number; fds: number }) => number) => {
    const early = median(decile(2).map(pick));
    const late = median(decile(10).map(pick));
    const growth = late / early - 1;
    const pass = growth <= TOLERANCE;
    ok &&= pass;
    console.log(
      `${name}: second-decile median ${early.toFixed(0)}, last-decile median ${late.toFixed(0)} (${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)}%) ${pass ? "stable" : "GROWING"}`,
    );
  };
  const ms = (xs: number[]) => `${(median(xs) / 1000).toFixed(2)} s`;
  console.log(
    `${RUNS} runs in ${(total / 60_000).toFixed(1)} min; run time median ${ms(durations)} (first decile ${ms(durations.slice(0, RUNS / 10))}, last decile ${ms(durations.slice(-RUNS / 10))})`,
  );
  check("server RSS (MB)", (s) => s.rss);
  check("open fds", (s) => s.fds);
  console.log(
    `Chromium processes during the soak: min ${Math.min(...samples.map((s) => s.chromium))}, max ${Math.max(...samples.map((s) => s.chromium))}; browsers max ${Math.max(...samples.map((s) => s.browsers))}`,
  );
  // Pages and contexts live in renderer processes: none may outlast the runs. Each pool browser
  // keeps its own helpers (zygotes, GPU, network, storage, and services Chromium starts later).
  const kinds = chromiumKinds(pid);
  const leftover = idleAfter.browsers !== CONCURRENCY || (kinds.renderer ?? 0) > 0 || idleAfter.fds > idleBefore.fds + 4;
  ok &&= !leftover;
  console.log(
    `idle after: ${idleAfter.browsers} browsers (pool: ${CONCURRENCY}), ${kinds.renderer ?? 0} renderers (open pages), ` +
      `${idleAfter.chromium} Chromium processes vs ${idleBefore.chromium} before ${leftover ? "— LEFTOVERS" : "— nothing left over"}; ` +
      `fds ${idleAfter.fds} vs ${idleBefore.fds} before; disk ${idleAfter.diskMb.toFixed(1)} MB`,
  );
  console.log(`  Chromium by kind, idle: before ${JSON.stringify(kindsBefore)}, after ${JSON.stringify(kinds)}`);
} finally {
  await server.stop();
  await sites.close();
}
if (!ok) process.exit(1);
