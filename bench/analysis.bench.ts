// Full analysis (capture, extraction, scoring, findings) through the API of a running server vs
// bare Playwright screenshotting the same pages, as issue 12 defines the comparison:
//   ours  from POST /api/comparisons/:id/start to the run's `completed` (over the live socket),
//         on a warm server (its capture browsers already launched, as deployed)
//   bare  one script that launches one Chromium, opens every page at both viewports as parallel
//         contexts, waits for `load` and takes full-page screenshots
// timed alternately in the same run, medians reported, on two page sets: the small fixture sites
// and real templates from ../shared/corpus. Offline, bare gets --disable-features=AsyncDns so both
// give up on CDN hosts equally fast. Target: ratio <= 1.3 on both sets.
// Run: bun bench/analysis.bench.ts   (BENCH_ROUNDS=5 by default; needs Chromium)
//      BENCH_SETS=fixture runs one set only (matched against the set names)
//      BENCH_FRESH_PAGES=1 makes every analysis a new user's first (no earlier timing samples)
import { join } from "node:path";
import { startFixtureServer } from "#tests/support/fixture-server";
import { CORPUS_DIR, serveFolders } from "./corpus-lib";
import { bare, warmServer } from "./full-run";
import { loadNow, median, verdict } from "./lib";
import { cpuSpent, treeCpu } from "./proc";

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

const fixtures = startFixtureServer();
const CORPUS_SITES = ["clean-blog", "stylish-portfolio"];
const corpus = serveFolders(Object.fromEntries(CORPUS_SITES.map((t) => [t, join(CORPUS_DIR, t)])));
const SETS = {
  "fixture sites (alpha, beta)": ["alpha", "beta"].map((s) => fixtures.url(`/${s}/`)),
  [`corpus templates (${CORPUS_SITES.join(", ")})`]: CORPUS_SITES.map((t) => corpus.url(t)),
};
const { server, call, signup, timedRun } = await warmServer();
let users = 0;
let token = await signup(++users);
// Timing samples of a page measured in the last hour by the same owner stand in for extra timing
// loads (capture/timing/timing-samples.ts). BENCH_FRESH_PAGES=1 runs every analysis as a new user, so
// each is that user's first look at the pages and every sample is a load of its own.
const freshPages = process.env.BENCH_FRESH_PAGES === "1";

/** One analysis of `urls` at both viewports, from POST /start to `completed` (heard over the socket). */
async function analyse(urls: string[]): Promise<{ ms: number; rssMb: number; spreads: string[]; cpu: ReturnType<typeof cpuSpent> }> {
  const cmp = await call("POST", "/api/comparisons", token, { name: "bench" });
  for (const [i, url] of urls.entries()) await call("POST", `/api/comparisons/${cmp.id}/targets`, token, { url, label: `site ${i + 1}` });
  const before = treeCpu(server.proc.pid);
  const { ms, rssMb: peak } = await timedRun(token, cmp.id);
  // The server's whole process tree: its threads and workers, the capture browsers and their helpers.
  const cpu = cpuSpent(before, treeCpu(server.proc.pid));
  const snapshots = await call("GET", `/api/comparisons/${cmp.id}/snapshots`, token);
  const diffs = await call("GET", `/api/comparisons/${cmp.id}/diffs`, token);
  const spreads = snapshots.map((s: any) => {
    const t = s.extraction.timing;
    const r = t.spread?.lcpMs;
    const earlier = (t.samples ?? []).filter((x: any) => x.fromRunAt).length;
    return `${s.viewport} LCP ${t.lcpMs} ms [${r ? `${r.min}-${r.max}` : "-"}] over ${t.samples?.length ?? 1}${earlier ? ` (${earlier} from earlier runs)` : ""}`;
  });
  for (const d of diffs)
    spreads.push(`${d.viewport} design ${d.designSimilarity} content ${d.contentSimilarity} overall ${d.overallSimilarity}`);
  return { ms, rssMb: peak, spreads, cpu };
}

/** One bare run, with the CPU its browser and this process spent (the idle server's, read alongside, left out). */
async function bareWithCpu(urls: string[]): Promise<{ ms: number; cpuS: number }> {
  const [self0, server0] = [treeCpu(process.pid), treeCpu(server.proc.pid)];
  const ms = await bare(urls);
  const [self1, server1] = [treeCpu(process.pid), treeCpu(server.proc.pid)];
  return { ms, cpuS: cpuSpent(self0, self1).total - cpuSpent(server0, server1).total };
}

interface SetResult {
  set: string;
  bare: number[];
  ours: number[];
  bareCpu: number[];
  oursCpu: number[];
  oursByKind: Record<string, number>[];
  loads: string[];
  rss: number;
  spreads: string[];
}
const results: SetResult[] = [];
for (const [set, urls] of Object.entries(SETS).filter(([name]) => name.includes(process.env.BENCH_SETS ?? ""))) {
  const r: SetResult = { set, bare: [], ours: [], bareCpu: [], oursCpu: [], oursByKind: [], loads: [], rss: 0, spreads: [] };
  const bareRound = async () => {
    const b = await bareWithCpu(urls);
    r.bare.push(b.ms);
    r.bareCpu.push(b.cpuS);
  };
  await analyse(urls); // one unmeasured run: first-use costs (worker start, page bundle) are not per-analysis
  for (let i = 0; i < rounds; i++) {
    // Alternated (and the order swapped each round) so a change in machine load hits both alike.
    const bareFirst = i % 2 === 0;
    if (bareFirst) await bareRound();
    if (freshPages) token = await signup(++users);
    const run = await analyse(urls);
    r.ours.push(run.ms);
    r.oursCpu.push(run.cpu.total);
    r.oursByKind.push(run.cpu.byKind);
    r.rss = Math.max(r.rss, run.rssMb);
    r.spreads = run.spreads;
    if (!bareFirst) await bareRound();
    // On a shared machine the ratio follows what else runs: each round's pair is printed with the load it ran under.
    r.loads.push(loadNow().split(" ")[0]!);
  }
  results.push(r);
}
await server.stop();
await fixtures.close();
corpus.stop();

const load = loadNow();
console.log(
  `${rounds} rounds per set, alternated, medians; load average at the end ${load}; ${freshPages ? "every analysis a new user's first (no earlier timing samples)" : "one user (earlier runs' timing samples count)"}`,
);
for (const r of results) {
  console.log(`\n${r.set}, desktop + mobile`);
  console.log(
    `  bare Playwright (launch, parallel contexts, load, full-page screenshot)  ${median(r.bare).toFixed(0)} ms   [${r.bare.map((x) => x.toFixed(0)).join(", ")}]`,
  );
  console.log(
    `  full analysis (POST /start -> completed, warm server)                 ${median(r.ours).toFixed(0)} ms   [${r.ours.map((x) => x.toFixed(0)).join(", ")}]`,
  );
  console.log(
    `  per round, ours / bare (1-minute load average after it): ${r.ours.map((o, i) => `${(o / r.bare[i]!).toFixed(2)} (${r.loads[i]})`).join(", ")}`,
  );
  // On a machine whose cores are busy, the time ratio tends to this one.
  const kinds = Object.keys(r.oursByKind[0] ?? {}).filter((k) => median(r.oursByKind.map((b) => b[k] ?? 0)) >= 0.05);
  const split = kinds
    .map((k) => [k, median(r.oursByKind.map((b) => b[k] ?? 0))] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(", ");
  console.log(
    `  CPU-s per analysis (process trees): ours ${median(r.oursCpu).toFixed(2)} [${r.oursCpu.map((x) => x.toFixed(1)).join(", ")}], bare ${median(r.bareCpu).toFixed(2)} [${r.bareCpu.map((x) => x.toFixed(1)).join(", ")}] -> ${(median(r.oursCpu) / median(r.bareCpu)).toFixed(2)}; ours by process: ${split}`,
  );
  console.log(`  server peak RSS ${r.rss.toFixed(0)} MB; last run's timing: ${r.spreads.join("; ")}`);
}
console.log("");
for (const r of results) verdict(`${r.set}: full analysis / bare Playwright`, median(r.ours) / median(r.bare), { atMost: 1.3 });
