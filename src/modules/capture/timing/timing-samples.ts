// More than one timing sample per page. One load says little: the same page's FCP was 184 ms in one
// run and 724 ms in the next. After the capture (whose own load is the first sample), extra light
// loads — a fresh context each, so nothing is cached, no scroll, no screenshot — read the vitals
// again once the page has settled (load, network quiet, images in view decoded). Samples are taken
// where they matter. In a comparison run the run decides, once every site's first load at the
// viewport is in (comparisons/run/transitions/timing.ts): only pages a timing finding could be
// about get a second load, and a third when the first two disagree. A capture on its own decides
// alone: a page whose first load painted faster than any gap a timing finding needs
// (TIMING_MIN_GAP_MS) can never be the slow page of a finding, so it is loaded once.
//
// The same page measured within the last hour (same owner, URL, viewport and profile) has samples
// already: when the capture's own load is in line with them, they stand in for the extra loads and
// the spread is measured across runs instead of across back-to-back loads. Each such sample keeps
// the time of the capture that measured it (`fromRunAt`), and only a capture's own loads are ever
// handed on, never samples it took over. A load out of line with them (the page or its host
// changed) gets fresh extra loads of its own, so a change is measured, not averaged away.
//
// The mobile viewport can be timed under Lighthouse's mobile preset instead (its "slow 4G" network
// and 4x CPU, applied through the DevTools protocol); then every sample is such a light load, since
// the capture's own load ran unthrottled.

import type { BrowserContext, Page } from "playwright-core";
import type { Extraction } from "../model";
import { watchNetworkQuiet } from "../watchers/network-quiet";
import type { Vitals } from "../page/types";
import { callPage } from "../page-script/page-script";

export const TIMING_PROFILES = ["unthrottled", "lighthouse-mobile"] as const;
export type TimingProfile = (typeof TIMING_PROFILES)[number];

/**
 * Lighthouse's mobile preset as DevTools throttling (lighthouse core/config/constants.js,
 * mobileSlow4G): 150 ms RTT x 3.75 request latency, 1.6 Mbps x 0.9 down, 750 kbps x 0.9 up, 4x CPU.
 */
export const LIGHTHOUSE_MOBILE = {
  latencyMs: 150 * 3.75,
  downloadBytesPerSecond: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadBytesPerSecond: (750 * 1024 * 0.9) / 8,
  cpuSlowdown: 4,
} as const;

/** Samples of earlier captures older than this are not used: the page or its host may have changed since. */
export const EARLIER_SAMPLES_MAX_AGE_MS = 60 * 60 * 1000;

/** One load measured by an earlier capture of the same page, with when that capture ran. */
export interface EarlierSample {
  at: string;
  profile: TimingProfile;
  /** The browser that measured it (browser/browser-label.ts); null when the capture did not record one. */
  browser: string | null;
  sample: Vitals;
}

/**
 * Gaps below these are noise between two runs, never a timing finding (analysis's timing rules
 * use them as their minimum gaps). A page whose LCP and FCP are both under them can't be the slow
 * one in any timing finding, so the capture samples it once only.
 */
export const TIMING_MIN_GAP_MS = { lcp: 500, fcp: 400, speedIndex: 500, tbt: 200 } as const;

/** Samples wanted when the first two agree, and at most when they do not. */
export const STEADY_SAMPLES = 2;
export const MAX_SAMPLES = 3;
/** Two samples further apart than this (relative to the smaller) call for one more. */
const DISAGREE = 0.25;
const QUIET_MS = 250;
const QUIET_WAIT_MS = 2_000;

type Metric = "ttfbMs" | "fcpMs" | "lcpMs" | "cls" | "domContentLoadedMs" | "loadMs";
const METRICS: Metric[] = ["ttfbMs", "fcpMs", "lcpMs", "cls", "domContentLoadedMs", "loadMs"];

export async function applyProfile(context: BrowserContext, page: Page, profile: TimingProfile): Promise<void> {
  if (profile === "unthrottled") return;
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: LIGHTHOUSE_MOBILE.latencyMs,
    downloadThroughput: LIGHTHOUSE_MOBILE.downloadBytesPerSecond,
    uploadThroughput: LIGHTHOUSE_MOBILE.uploadBytesPerSecond,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: LIGHTHOUSE_MOBILE.cpuSlowdown });
}

/** One light load in a context from `open`; null when it fails or runs out of time. */
export async function lightSample(
  open: () => Promise<BrowserContext>,
  url: string,
  opts: { profile: TimingProfile; timeoutMs: number; paintWaitMs: number },
): Promise<Vitals | null> {
  let context: BrowserContext | null = null;
  const timer = new Promise<null>((resolve) => setTimeout(() => resolve(null), opts.timeoutMs));
  const run = async (): Promise<Vitals | null> => {
    context = await open();
    const page = await context.newPage();
    await applyProfile(context, page, opts.profile);
    const quiet = watchNetworkQuiet(page);
    await page.goto(url, { waitUntil: "load", timeout: opts.timeoutMs });
    await quiet.waitForQuiet(QUIET_MS, QUIET_WAIT_MS);
    return callPage(page, "readVitals", { paintWaitMs: opts.paintWaitMs });
  };
  try {
    return await Promise.race([run().catch(() => null), timer]);
  } finally {
    await (context as BrowserContext | null)?.close().catch(() => {});
  }
}

/** Time one light load may take, at most (a throttled one is slower by design). */
const SAMPLE_TIMEOUT_MS = { unthrottled: 10_000, "lighthouse-mobile": 30_000 } as const;

export interface SamplingPlan {
  profile: TimingProfile;
  /** Loads of this capture already measured under the profile (its own load, when it ran under it). */
  own: Vitals[];
  /** Recent captures' loads of the page, newest first; any profile and browser (only the plan's are used). */
  earlier: EarlierSample[];
  /** The browser these loads run in: an earlier sample counts only if the same browser measured it. */
  browser: string;
  /** Loads wanted at most. */
  max: number;
  /** Whether the samples so far leave a timing finding about the page open, so more loads are worth it. */
  matters: (samples: Vitals[]) => boolean;
  /** Time left for loads (ms); loading stops when it runs out, and the samples taken are reported. */
  budget: () => number;
  paintWaitMs: number;
}

/**
 * The page's timing from several loads: `own` first, then light loads in contexts from `open` while
 * they matter and (past STEADY_SAMPLES) disagree. Earlier captures' samples stand in for further
 * loads when the loads so far are in line with them.
 */
export async function sampleTiming(open: () => Promise<BrowserContext>, url: string, plan: SamplingPlan): Promise<TimingSummary> {
  const { profile } = plan;
  const samples = [...plan.own];
  const max = Math.max(1, Math.min(MAX_SAMPLES, plan.max));
  const steady = Math.min(max, STEADY_SAMPLES);
  // The newest first; used only when there are enough of them to make up the samples wanted.
  const earlier = plan.earlier.filter((e) => e.profile === profile && e.browser === plan.browser).slice(0, max - 1);
  while (samples.length < max && (samples.length === 0 || plan.matters(samples)) && (samples.length < steady || disagree(samples))) {
    if (
      samples.length + earlier.length >= max &&
      fitsEarlier(
        samples,
        earlier.map((e) => e.sample),
      )
    ) {
      return summariseSamples(samples, profile, earlier.slice(0, max - samples.length));
    }
    const left = plan.budget();
    if (left < 1000) break;
    const sample = await lightSample(open, url, {
      profile,
      timeoutMs: Math.min(SAMPLE_TIMEOUT_MS[profile], left),
      paintWaitMs: plan.paintWaitMs,
    });
    if (!sample) break;
    samples.push(sample);
  }
  // With no sample at all (not one throttled load finished) every figure is null, never an unthrottled stand-in.
  return summariseSamples(samples, profile);
}

/** Whether these samples leave open a timing finding about the page (so more loads are worth it). */
export function couldMatter(samples: Vitals[]): boolean {
  return samples.some((s) => (s.lcpMs ?? 0) >= TIMING_MIN_GAP_MS.lcp || (s.fcpMs ?? 0) >= TIMING_MIN_GAP_MS.fcp || s.lcpMs === null);
}

/** Whether two samples disagree enough on a paint metric that a third is worth taking. */
export function disagree(samples: Vitals[]): boolean {
  if (samples.length < 2) return false;
  return (["fcpMs", "lcpMs"] as const).some((m) => {
    const vs = samples.map((s) => s[m]).filter((v): v is number => v !== null);
    if (vs.length < 2) return false;
    const lo = Math.min(...vs);
    return Math.max(...vs) - lo > Math.max(50, lo * DISAGREE);
  });
}

/**
 * Whether this capture's own samples are in line with earlier ones: each paint metric inside the
 * earlier samples' range, widened by the margin two loads may differ by before they disagree.
 * A metric one side measured and the other did not is out of line.
 */
export function fitsEarlier(fresh: Vitals[], earlier: Vitals[]): boolean {
  if (fresh.length === 0 || earlier.length === 0) return false;
  return (["fcpMs", "lcpMs"] as const).every((m) => {
    const now = fresh.map((s) => s[m]).filter((v): v is number => v !== null);
    const then = earlier.map((s) => s[m]).filter((v): v is number => v !== null);
    if (now.length === 0 || then.length === 0) return now.length === then.length;
    const lo = Math.min(...then);
    const hi = Math.max(...then);
    return now.every((v) => v >= lo - Math.max(50, lo * DISAGREE) && v <= hi + Math.max(50, hi * DISAGREE));
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

type Timing = Extraction["timing"];
export type TimingSummary = Pick<Timing, Metric | "lcpElement"> & Required<Pick<Timing, "samples" | "spread" | "profile">>;

/**
 * The reported timing: each metric's median over the samples that have it (null when none do),
 * the LCP element of the sample closest to the median LCP, and each metric's spread (min..max).
 * `earlier` samples (see fitsEarlier) follow this capture's own in the list, marked with their time.
 */
export function summariseSamples(own: Vitals[], profile: TimingProfile, earlier: EarlierSample[] = []): TimingSummary {
  const samples = [...own, ...earlier.map((e) => e.sample)];
  const spread = {} as TimingSummary["spread"];
  const out = {} as Record<Metric, number | null>;
  for (const m of METRICS) {
    const vs = samples.map((s) => s[m]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
    const mid = vs.length ? median(vs) : null;
    out[m] = mid === null ? null : m === "cls" ? Math.round(mid * 10000) / 10000 : Math.round(mid);
    spread[m] = vs.length ? { min: Math.min(...vs), max: Math.max(...vs) } : null;
  }
  const lcp = out.lcpMs;
  const typical =
    lcp === null
      ? undefined
      : [...samples].filter((s) => s.lcpMs !== null).sort((a, b) => Math.abs(a.lcpMs! - lcp) - Math.abs(b.lcpMs! - lcp))[0];
  return {
    ...out,
    lcpElement: typical?.lcpElement ?? samples.find((s) => s.lcpElement)?.lcpElement ?? null,
    samples: samples.map((s, i) => {
      const from = i >= own.length ? earlier[i - own.length]!.at : undefined;
      return {
        ttfbMs: s.ttfbMs,
        fcpMs: s.fcpMs,
        lcpMs: s.lcpMs,
        cls: s.cls,
        lcpElement: s.lcpElement ?? null,
        ...(from ? { fromRunAt: from } : {}),
      };
    }),
    spread,
    profile,
  };
}
