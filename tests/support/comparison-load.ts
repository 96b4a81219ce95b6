// The same pages timed inside a small and a large comparison, through the product's own path: an
// in-process app whose runs call the capture pool, the analyser and the findings step exactly as
// the server wires them (src/boot/run-tools.ts, the pool at its default concurrency, warm, with the
// default timing loads). A "comparison of N sites" is a real run of a comparison holding N
// websites: N pages a viewport reach the fair queue together, desktop first, and the run asks for
// extra timing loads once a viewport's pages are in. What a page reports is its stored snapshot's
// `extraction.timing` once the run has completed (the median over its loads).
//
// Used by bench/lcp-load.bench.ts.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, normalize, sep } from "node:path";
import { CORPUS_DIR, contentType } from "./static-files";

export { CORPUS_DIR };
import { poolRunTools } from "#server/boot/run-tools";
import { loadEnv } from "#server/env";
import { findChromium } from "#server/lib/chromium";
import { createAnalyser, type Analyser } from "#server/modules/analysis";
import { CapturePool } from "#server/modules/capture/browser/pool";
import type { Viewport } from "#server/modules/capture/model";
import { makeTestApp } from "./app";
import { SITES_DIR } from "./fixture-server";

// Beside the checkout (CI: the repository and `shared/` side by side), or beside the folder of
export const corpusFound = () => existsSync(join(CORPUS_DIR, "clean-blog", "index.html"));

/** A website of the set: fixture sites are written by us, corpus ones are real templates nobody here wrote. */
export interface Site {
  name: string;
  set: "fixture" | "corpus";
}

/** Pages measured, in the order they are taken (MEASURED_PAGES picks how many of each set). */
export const MEASURABLE = {
  fixture: ["alpha", "beta", "gamma"],
  corpus: ["clean-blog", "stylish-portfolio", "resume"],
} as const;
/** Websites that fill a large comparison up to its size, never measured. */
const FILLERS: Site[] = [
  { name: "alpha-edited", set: "fixture" },
  { name: "one-page-wonder", set: "corpus" },
  { name: "clean-blog-2020", set: "corpus" },
  { name: "gamma", set: "fixture" },
  { name: "resume", set: "corpus" },
  { name: "beta", set: "fixture" },
  { name: "stylish-portfolio", set: "corpus" },
];

/** Serves /fixture/<site>/… from tests/fixtures/sites and /corpus/<template>/… from the corpus, in place, on 127.0.0.1. */
function serveSites() {
  const roots = { fixture: SITES_DIR, corpus: CORPUS_DIR };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const m = /^\/(fixture|corpus)\/([a-z0-9-]+)(\/.*)$/.exec(decodeURIComponent(new URL(req.url).pathname));
      if (!m) return new Response("not here", { status: 404 });
      const root = join(roots[m[1] as Site["set"]], m[2]!);
      let file = normalize(join(root, m[3]!));
      if (!file.startsWith(root + sep) && file !== root) return new Response("no", { status: 403 });
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
      if (!existsSync(file)) return new Response("not here", { status: 404 });
      return new Response(Bun.file(file), { headers: { "content-type": contentType(file) } });
    },
  });
  return { url: (s: Site) => `http://127.0.0.1:${server.port}/${s.set}/${s.name}/`, stop: () => server.stop(true) };
}

export interface PageTiming {
  lcpMs: number | null;
  fcpMs: number | null;
  /** Loads the figure is the median of. */
  loads: number;
  /** The capture's own load (the first sample). */
  firstLcpMs: number | null;
}

/** One run of one comparison: each website's reported timing by viewport, and how long the run took. */
export interface RunTimings {
  pages: Map<string, Record<Viewport, PageTiming>>;
  ms: number;
}

export interface ComparisonLab {
  /** Runs a comparison of these websites once, as a new owner (no earlier captures stand in for loads), and waits for it to complete. */
  run(sites: Site[]): Promise<RunTimings>;
  close(): Promise<void>;
}

export async function openComparisonLab(): Promise<ComparisonLab> {
  const dataDir = mkdtempSync(join(tmpdir(), "di-lcp-load-"));
  const sites = serveSites();
  // The product's defaults: the server reads these from the same schema (src/boot/serve.ts).
  const env = loadEnv({ NODE_ENV: "test", DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" });
  const pool = new CapturePool({
    concurrency: Number(process.env.CAPTURE_CONCURRENCY ?? env.CAPTURE_CONCURRENCY),
    chromiumPath: findChromium(process.env.CHROMIUM_PATH),
    allowPrivate: true,
    timingSamples: env.CAPTURE_TIMING_SAMPLES,
    mobileTimingProfile: env.CAPTURE_MOBILE_PROFILE,
  });
  pool.warm();
  const analyser: Analyser = createAnalyser();
  const t = makeTestApp({ env: { DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: "1" }, runTools: poolRunTools(pool, analyser, env, () => {}) });

  async function run(list: Site[]): Promise<RunTimings> {
    const u = await t.signup();
    const h = t.auth(u.token);
    const c = (await t.call("POST", "/api/comparisons", { body: { name: `${list.length} sites` }, headers: h })).json;
    const ids = new Map<string, string>();
    for (const s of list) {
      const r = await t.call("POST", `/api/comparisons/${c.id}/targets`, { body: { url: sites.url(s), label: s.name }, headers: h });
      if (r.status !== 201) throw new Error(`adding ${s.name}: ${r.status} ${r.text}`);
      ids.set(r.json.id, s.name);
    }
    const started = performance.now();
    const start = await t.call("POST", `/api/comparisons/${c.id}/start`, { headers: h });
    if (start.status !== 202) throw new Error(`starting the comparison: ${start.status} ${start.text}`);
    await t.services.comparisons.whenIdle();
    const ms = performance.now() - started;
    const done = (await t.call("GET", `/api/comparisons/${c.id}`, { headers: h })).json;
    if (done.status !== "completed" || done.progress.done !== list.length * 2) {
      const why = done.targets
        .filter((x: { error: string | null }) => x.error)
        .map((x: { label: string; error: string }) => `${x.label}: ${x.error}`);
      throw new Error(`the ${list.length}-site comparison ended ${done.status}: ${done.error} (${why.join("; ")})`);
    }
    const pages = new Map<string, Record<Viewport, PageTiming>>();
    for (const snap of (await t.call("GET", `/api/comparisons/${c.id}/snapshots`, { headers: h })).json) {
      const name = ids.get(snap.targetId)!;
      const timing = snap.extraction.timing;
      const own = (timing.samples ?? []).filter((s: { fromRunAt?: string }) => !s.fromRunAt);
      const entry = pages.get(name) ?? ({} as Record<Viewport, PageTiming>);
      entry[snap.viewport as Viewport] = { lcpMs: timing.lcpMs, fcpMs: timing.fcpMs, loads: own.length, firstLcpMs: own[0]?.lcpMs ?? null };
      pages.set(name, entry);
    }
    return { pages, ms };
  }

  return {
    run,
    async close() {
      analyser.close?.();
      await pool.close();
      sites.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The measured pages: `perSet` of each set, fixture first. */
export function measuredPages(perSet: number): Site[] {
  const take = (set: Site["set"]) => MEASURABLE[set].slice(0, perSet).map((name) => ({ name, set }));
  return [...take("fixture"), ...take("corpus")];
}

/**
 * The small comparisons: the measured pages two by two (with a filler beside an odd one out),
 * each compared with one other website only.
 */
export function smallComparisons(measured: Site[]): Site[][] {
  const out: Site[][] = [];
  for (let i = 0; i < measured.length; i += 2) {
    const pair = measured.slice(i, i + 2);
    if (pair.length === 1) pair.push(FILLERS.find((f) => f.name !== pair[0]!.name)!);
    out.push(pair);
  }
  return out;
}

/**
 * The large comparison of `size` websites: every measured page plus fillers, in an order turned
 * by `round`, so each measured page is captured early in some rounds and late in others (the
 * queue takes a run's pages in target order).
 */
export function largeComparison(measured: Site[], size: number, round: number): Site[] {
  const names = new Set(measured.map((s) => s.name));
  const fillers = FILLERS.filter((f) => !names.has(f.name)).slice(0, Math.max(0, size - measured.length));
  // Measured pages spread among the fillers, then the whole list rotated.
  const list: Site[] = [];
  const step = Math.max(1, Math.round(size / Math.max(1, measured.length)));
  let m = 0;
  let f = 0;
  for (let i = 0; list.length < measured.length + fillers.length; i++) {
    if (m < measured.length && (i % step === 0 || f >= fillers.length)) list.push(measured[m++]!);
    else if (f < fillers.length) list.push(fillers[f++]!);
  }
  const turn = (round * 3) % list.length;
  return [...list.slice(turn), ...list.slice(0, turn)];
}

export function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export type Metric = "lcpMs" | "fcpMs";

export interface PageVerdict {
  page: Site;
  viewport: Viewport;
  metric: Metric;
  small: (number | null)[];
  large: (number | null)[];
  smallMedian: number | null;
  largeMedian: number | null;
  /** large / small median. */
  ratio: number | null;
}

export interface LoadStudy {
  rounds: number;
  size: number;
  /** Every measured page, metric and viewport. */
  verdicts: PageVerdict[];
  runs: { round: number; kind: "small" | "large"; ms: number; timings: RunTimings }[];
}

/**
 * `rounds` alternating rounds: each round runs every small comparison one after another and the
 * large one, the order flipped every other round so neither condition always runs first.
 */
export async function studyLoad(
  lab: ComparisonLab,
  opts: { measured: Site[]; size: number; rounds: number; log?: (line: string) => void },
): Promise<LoadStudy> {
  const { measured, size, rounds } = opts;
  const small = new Map<string, Record<Viewport, PageTiming>[]>();
  const large = new Map<string, Record<Viewport, PageTiming>[]>();
  const runs: LoadStudy["runs"] = [];
  const record = (into: Map<string, Record<Viewport, PageTiming>[]>, timings: RunTimings, only: Site[]) => {
    for (const s of only) {
      const t = timings.pages.get(s.name);
      if (t) into.set(s.name, [...(into.get(s.name) ?? []), t]);
    }
  };
  // A run that fails outright (a capture cut short on an overloaded machine) is run once more.
  const runOnce = (list: Site[]) =>
    lab.run(list).catch((e: unknown) => {
      opts.log?.(`run again: ${e instanceof Error ? e.message : String(e)}`);
      return lab.run(list);
    });
  const fmt = (timings: RunTimings, only: Site[]) =>
    only
      .map((s) => {
        const d = timings.pages.get(s.name)?.desktop;
        return `${s.name} ${d?.lcpMs ?? "–"}/${d?.fcpMs ?? "–"} (${d?.loads ?? 0} loads)`;
      })
      .join(", ");
  for (let round = 0; round < rounds; round++) {
    const steps: (() => Promise<void>)[] = [
      async () => {
        for (const pair of smallComparisons(measured)) {
          const timings = await runOnce(pair);
          const mine = pair.filter((s) => measured.some((m) => m.name === s.name));
          record(small, timings, mine);
          runs.push({ round, kind: "small", ms: timings.ms, timings });
          opts.log?.(`round ${round + 1} 2-site (${Math.round(timings.ms)} ms) desktop LCP/FCP: ${fmt(timings, mine)}`);
        }
      },
      async () => {
        const list = largeComparison(measured, size, round);
        const timings = await runOnce(list);
        record(large, timings, measured);
        runs.push({ round, kind: "large", ms: timings.ms, timings });
        opts.log?.(`round ${round + 1} ${size}-site (${Math.round(timings.ms)} ms) desktop LCP/FCP: ${fmt(timings, measured)}`);
      },
    ];
    if (round % 2) steps.reverse();
    for (const step of steps) await step();
  }
  const verdicts: PageVerdict[] = [];
  for (const viewport of ["desktop", "mobile"] as const) {
    for (const page of measured) {
      for (const metric of ["lcpMs", "fcpMs"] as const) {
        const a = (small.get(page.name) ?? []).map((t) => t[viewport]?.[metric] ?? null);
        const b = (large.get(page.name) ?? []).map((t) => t[viewport]?.[metric] ?? null);
        const smallMedian = median(a.filter((v): v is number => v !== null));
        const largeMedian = median(b.filter((v): v is number => v !== null));
        const ratio = smallMedian && largeMedian !== null ? largeMedian / smallMedian : null;
        verdicts.push({ page, viewport, metric, small: a, large: b, smallMedian, largeMedian, ratio });
      }
    }
  }
  return { rounds, size, verdicts, runs };
}

/** One line a page and metric: both medians, the ratio and every run's figure. */
export function describe(v: PageVerdict, size: number): string {
  const r = v.ratio === null ? "n/a" : v.ratio.toFixed(2);
  const list = (xs: (number | null)[]) => xs.map((x) => x ?? "null").join(", ");
  return `${v.page.set} ${v.page.name} ${v.viewport} ${v.metric === "lcpMs" ? "LCP" : "FCP"}: 2-site ${v.smallMedian ?? "null"} ms [${list(v.small)}], ${size}-site ${v.largeMedian ?? "null"} ms [${list(v.large)}] → ${r}`;
}
