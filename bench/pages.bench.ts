// Pages per site at scale (issue 33): a comparison of 3 sites × 3 roles (home, pricing, features)
// × 2 viewports through the API of a running server, vs bare Playwright taking the same 18
// screenshots (one browser, parallel contexts), as bench/analysis.bench.ts times its sets:
//   ours  POST /api/comparisons/:id/start → `completed` over the live socket, warm server; the run
//         captures, extracts, scores each role's pairs, writes findings and lists each site's pages
//   bare  launch, 18 parallel contexts, `load`, full-page screenshot
// alternated (order swapped each round), medians. Target: ratio ≤ 1.3.
// Run: bun bench/pages.bench.ts   (BENCH_ROUNDS=5 by default; needs Chromium)
import { startWatchSites, WATCH_PAGES } from "#tests/support/watch-sites";
import { bare, warmServer } from "./full-run";
import { loadNow, median, verdict } from "./lib";

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const sites = startWatchSites();
const urls = sites.flatMap((s) => Object.values(WATCH_PAGES).map((p) => new URL(p, s.url).href));
const { server, call, signup, timedRun } = await warmServer();
const token = await signup(1);

/** A new comparison of the three sites with their pricing and features pages, run once. */
async function comparison(): Promise<{
  ms: number;
  rssMb: number;
  snapshots: number;
  diffs: number;
}> {
  const cmp = await call("POST", "/api/comparisons", token, {
    name: "pages bench",
  });
  for (const s of sites) {
    const t = await call("POST", `/api/comparisons/${cmp.id}/targets`, token, {
      url: s.url,
      label: s.name,
    });
    for (const role of ["pricing", "features"] as const)
      await call("POST", `/api/targets/${t.id}/pages`, token, {
        path: WATCH_PAGES[role],
        role,
      });
  }
  const run = await timedRun(token, cmp.id);
  const snapshots = (await call("GET", `/api/comparisons/${cmp.id}/snapshots`, token)).length as number;
  const diffs = (await call("GET", `/api/comparisons/${cmp.id}/diffs`, token)).length as number;
  if (snapshots !== 18) throw new Error(`expected 18 captures, got ${snapshots}`);
  return { ...run, snapshots, diffs };
}

const loadBefore = loadNow();
const ours: number[] = [];
const bares: number[] = [];
let rss = 0;
let diffs = 0;
const loads: string[] = [];
await comparison(); // unmeasured: first-use costs (worker start, page bundle) are not per-run
for (let i = 0; i < rounds; i++) {
  const bareFirst = i % 2 === 0;
  if (bareFirst) bares.push(await bare(urls));
  const run = await comparison();
  ours.push(run.ms);
  rss = Math.max(rss, run.rssMb);
  diffs = run.diffs;
  if (!bareFirst) bares.push(await bare(urls));
  // On a shared machine the ratio follows what else runs: each round's pair is printed with the load it ran under.
  loads.push(loadNow().split(" ")[0]!);
}
await server.stop();
for (const s of sites) await s.server.close();

console.log(`${rounds} rounds, alternated, medians; load average ${loadBefore} → ${loadNow()}`);
console.log(`3 sites × 3 roles × 2 viewports (18 pages, ${diffs} pairs scored)`);
console.log(
  `  bare Playwright (launch, 18 parallel contexts, load, full-page screenshot)  ${median(bares).toFixed(0)} ms   [${bares.map((x) => x.toFixed(0)).join(", ")}]`,
);
console.log(
  `  full run (POST /start -> completed, warm server)                          ${median(ours).toFixed(0)} ms   [${ours.map((x) => x.toFixed(0)).join(", ")}]`,
);
console.log(
  `  per round, ours / bare (1-minute load average after it): ${ours.map((o, i) => `${(o / bares[i]!).toFixed(2)} (${loads[i]})`).join(", ")}`,
);
console.log(`  server peak RSS ${rss.toFixed(0)} MB`);
verdict("3 × 3 × 2 comparison / bare Playwright", median(ours) / median(bares), { atMost: 1.3 });
