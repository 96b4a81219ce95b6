// 20 users start an analysis at the same moment (2 fixture sites each, default CAPTURE_CONCURRENCY)
// on one server: how deep the capture queue gets, whether users are served in turn, server memory,
// Chromium processes, and the total time. Every run must complete.
// Run: bun bench/concurrent-users.bench.ts   (USERS to change the 20; needs Chromium; loopback only)
import { startFixtureServer } from "#tests/support/fixture-server";
import { startServer } from "#tests/support/server";
import { apiClient, type ComparisonState } from "./client";
import { verdict } from "./lib";
import { chromiumBrowsers, chromiumProcesses, median, rssMb } from "./proc";

const USERS = Number(process.env.USERS ?? 20);
const SAMPLE_MS = 250;
const LIMIT_MS = 15 * 60_000;
/** The server's default (src/env.ts), which this bench leaves in place. */
const CONCURRENCY = 2;

const sites = startFixtureServer();
// CAPTURE_CONCURRENCY "" = unset: the server's own default applies.
const server = await startServer({ env: { ALLOW_PRIVATE_TARGETS: "1", CAPTURE_CONCURRENCY: "", CAPTURE_LAZY: "" } });
const api = apiClient(server.url);
const pid = server.proc.pid;

interface Sample {
  t: number;
  /** Pages not yet captured beyond the ones the workers are on: the capture queue, inferred. */
  queued: number;
  /** Runs that have not had any page start yet ('Waiting for a capture slot'). */
  waitingRuns: number;
  running: number;
  rss: number;
  chromium: number;
  zombies: number;
  browsers: number;
}

try {
  const users: { email: string; token: string; id: string; firstPageAt?: number; doneAt?: number; state?: ComparisonState }[] = [];
  for (let i = 0; i < USERS; i++) {
    const email = `user${i + 1}@example.com`;
    const token = await api.signup(email);
    const id = await api.comparison(token, `Rivals of user ${i + 1}`, [sites.url("/alpha/"), sites.url("/beta/")]);
    users.push({ email, token, id });
  }
  // The warm pool launches its browsers at boot; measure idle once they are up.
  for (let i = 0; i < 100 && chromiumBrowsers(pid) < CONCURRENCY; i++) await Bun.sleep(200);
  await Bun.sleep(2000);
  const idle = { rss: rssMb(pid), chromium: chromiumProcesses(pid).live, browsers: chromiumBrowsers(pid) };

  const t0 = performance.now();
  await Promise.all(users.map((u) => api.start(u.token, u.id)));
  const samples: Sample[] = [];
  for (;;) {
    const t = performance.now() - t0;
    if (t > LIMIT_MS) throw new Error(`runs still going after ${LIMIT_MS / 60_000} minutes`);
    await Promise.all(users.map(async (u) => (u.state = await api.state(u.token, u.id))));
    let outstanding = 0;
    let waitingRuns = 0;
    let running = 0;
    for (const u of users) {
      const s = u.state!;
      const done = s.progress?.done ?? 0;
      if (done >= 1) u.firstPageAt ??= t;
      if (s.status === "running") {
        running++;
        outstanding += (s.progress?.total ?? 0) - done;
        if (s.progress?.stage === "Waiting for a capture slot") waitingRuns++;
      } else u.doneAt ??= t;
    }
    const chromium = chromiumProcesses(pid);
    samples.push({
      t,
      queued: Math.max(0, outstanding - CONCURRENCY),
      waitingRuns,
      running,
      rss: rssMb(pid),
      chromium: chromium.live,
      zombies: chromium.zombies,
      browsers: chromiumBrowsers(pid),
    });
    if (running === 0) break;
    await Bun.sleep(SAMPLE_MS);
  }
  const total = performance.now() - t0;

  const failed = users.filter((u) => u.state!.status !== "completed");
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const firsts = users.map((u) => u.firstPageAt!);
  const dones = users.map((u) => u.doneAt!);
  const pages = USERS * 4;
  const maxQueued = Math.max(...samples.map((x) => x.queued));
  // After every run was queued, the queue may only drain: nothing else adds to it.
  const grewAfterStart = samples.some((x, i) => i > 0 && x.queued > samples[i - 1]!.queued);

  console.log(`${USERS} users x 1 analysis (2 fixture sites, desktop + mobile = ${pages} pages), CAPTURE_CONCURRENCY=${CONCURRENCY}`);
  console.log(`total time: ${s(total)} (${(total / pages).toFixed(0)} ms per page overall); ${USERS - failed.length}/${USERS} completed`);
  console.log(
    `queue depth (pages waiting, inferred from progress): peak ${maxQueued} of ${pages}, ${grewAfterStart ? "GREW after the start" : "only drained after the start"}`,
  );
  const every = Math.max(1, Math.floor(samples.length / 10));
  console.log(
    "  over time: " +
      samples
        .filter((_, i) => i % every === 0 || i === samples.length - 1)
        .map((x) => `${s(x.t)}: ${x.queued} queued, ${x.waitingRuns} runs not started`)
        .join(" | "),
  );
  console.log(
    `first page done per user: earliest ${s(Math.min(...firsts))}, median ${s(median(firsts))}, last ${s(Math.max(...firsts))} ` +
      `(spread ${s(Math.max(...firsts) - Math.min(...firsts))}; last user's first page at ${((Math.max(...firsts) / total) * 100).toFixed(0)}% of the total time — ` +
      `one user after another would put it near ${(((pages - 3) / pages) * 100).toFixed(0)}%, strict turns near ${((USERS / pages) * 100).toFixed(0)}%)`,
  );
  console.log(`runs completed: first ${s(Math.min(...dones))}, median ${s(median(dones))}, last ${s(Math.max(...dones))}`);
  console.log(
    `server RSS: idle ${idle.rss.toFixed(0)} MB, peak ${Math.max(...samples.map((x) => x.rss)).toFixed(0)} MB; ` +
      `Chromium processes: idle ${idle.chromium} (${idle.browsers} browsers), peak ${Math.max(...samples.map((x) => x.chromium))} ` +
      `(${Math.max(...samples.map((x) => x.browsers))} browsers; up to ${Math.max(...samples.map((x) => x.zombies))} exited renderers awaiting reaping)`,
  );
  // Memory stays bounded: the queue holds URLs, not pages, and at most CAPTURE_CONCURRENCY
  // browsers run. Fair: with turns per user, the last user's first page comes early, not last.
  verdict("server peak RSS with 20 users (MB)", Math.max(...samples.map((x) => x.rss)), { atMost: 1024 });
  verdict("capture browsers at peak", Math.max(...samples.map((x) => x.browsers)), { atMost: CONCURRENCY });
  verdict("last user's first page, share of the total time", Math.max(...firsts) / total, { atMost: 0.5 });
  if (failed.length)
    throw new Error(
      `runs that did not complete: ${failed.map((u) => `${u.email}: ${u.state!.status} ${u.state!.error ?? ""}`).join("; ")}`,
    );
  if (grewAfterStart) throw new Error("the capture queue grew after every run had been queued");
} finally {
  await server.stop();
  await sites.close();
}
