// Speed, always against the fastest competitor at the same viewport, plus the absolute
// Core Web Vitals thresholds (LCP 2.5 s / 4 s, CLS 0.1 / 0.25) when everyone is slow. Speed Index
// and Total Blocking Time follow the same rules as LCP (1.5× the fastest and a minimum gap, beyond
// the measured spread), with web.dev's bands as their absolute thresholds (SI 3.4 s / 5.8 s, TBT
// 200 ms / 600 ms); a capture that did not measure them (older ones, null) is left out.

import type { Extraction } from "#server/modules/capture/model";
import { TIMING_MIN_GAP_MS } from "#server/modules/capture/public";
import { bytes, fileName, ms } from "../format";
import { best, type Draft, type RuleSnapshot, type Rule } from "./types";

/** The largest resource, when it is big enough to explain slowness on its own. */
function culprit(e: Extraction): { name: string; text: string; bytes: number; type: string } | null {
  const r = e.timing.largestResource;
  if (!r || r.bytes < 250 * 1024) return null;
  return { name: fileName(r.url), text: `${fileName(r.url)} (${bytes(r.bytes)}, ${r.type})`, bytes: r.bytes, type: r.type };
}

function weightFix(c: NonNullable<ReturnType<typeof culprit>>, what: string): string {
  if (/image/i.test(c.type)) {
    return `${what}: ${c.name} is ${bytes(c.bytes)} — resize it to its displayed width, serve AVIF/WebP (srcset), and preload it if it is the hero.`;
  }
  if (/script/i.test(c.type))
    return `${what}: ${c.name} is ${bytes(c.bytes)} of JavaScript — split it, defer what the first screen doesn't need.`;
  if (/font/i.test(c.type)) return `${what}: ${c.name} is ${bytes(c.bytes)} — subset the font and serve WOFF2 with font-display: swap.`;
  if (/media|video/i.test(c.type)) return `${what}: ${c.name} is ${bytes(c.bytes)} — lazy-load the video and show a poster image first.`;
  return `${what}: ${c.name} is ${bytes(c.bytes)} — compress it or load it after the first screen.`;
}

interface Metric {
  id: string;
  name: string;
  field: "lcpMs" | "fcpMs" | "speedIndexMs" | "tbtMs";
  pick: (e: Extraction) => number | null;
  /** The metric's spread over the capture's samples, when it took more than one. */
  range: (e: Extraction) => { min: number; max: number } | null;
  /** Absolute value that is a problem even if every competitor is as slow. */
  poor: number;
  high: number;
  /** A gap smaller than this is noise between two runs. */
  minGap: number;
  genericFix: string;
  /** Whether more light loads can move it (they time LCP and FCP; SI and TBT come from the capture's own load only). */
  sampled: boolean;
  /** How the capture measured it, for the evidence; absent where the sampled figures say it all. */
  method?: (e: Extraction) => string | null;
}

/** "Filmstrip of the capture's own load" from a measuredBy method: the clause before its details. */
const methodName = (m: string | null | undefined) => (m ? m.split(":")[0]! : null);

const metrics: Metric[] = [
  {
    id: "lcp",
    name: "LCP",
    field: "lcpMs",
    pick: (e) => e.timing.lcpMs,
    range: (e) => e.timing.spread?.lcpMs ?? null,
    poor: 2500,
    high: 4000,
    minGap: TIMING_MIN_GAP_MS.lcp,
    genericFix: "Serve the hero content in the initial HTML, preload its image, and cut render-blocking CSS/JS.",
    sampled: true,
  },
  {
    id: "fcp",
    name: "FCP",
    field: "fcpMs",
    pick: (e) => e.timing.fcpMs,
    range: (e) => e.timing.spread?.fcpMs ?? null,
    poor: 1800,
    high: 3000,
    minGap: TIMING_MIN_GAP_MS.fcp,
    genericFix: "Inline the critical CSS, defer non-essential scripts and cut third-party tags before first paint.",
    sampled: true,
  },
  {
    id: "speed-index",
    name: "Speed Index",
    field: "speedIndexMs",
    pick: (e) => e.timing.speedIndexMs ?? null,
    range: () => null,
    poor: 3400,
    high: 5800,
    minGap: TIMING_MIN_GAP_MS.speedIndex,
    genericFix:
      "Show the first screen sooner and all at once: size images and reserve their space, preload the hero and its web font, and keep late scripts from redrawing it.",
    sampled: false,
    method: (e) => methodName(e.timing.measuredBy?.speedIndex.method),
  },
  {
    id: "tbt",
    name: "Total Blocking Time",
    field: "tbtMs",
    pick: (e) => e.timing.tbtMs ?? null,
    range: () => null,
    poor: 200,
    high: 600,
    minGap: TIMING_MIN_GAP_MS.tbt,
    genericFix: "Break up long JavaScript tasks, defer scripts the first screen does not need, and move third-party tags after load.",
    sampled: false,
    method: (e) => methodName(e.timing.measuredBy?.tbt.method),
  },
];

/**
 * Whether `mine` is behind `theirs` by more than the loads' own variation: the slower page's
 * fastest sample must still be slower than the other's slowest sample. Captures with one sample
 * have no measured spread and are judged on their single figures.
 */
function beyondSpread(metric: Metric, mine: Extraction, theirs: Extraction): boolean {
  const a = metric.range(mine);
  const b = metric.range(theirs);
  return !a || !b || a.min > b.max;
}

/**
 * "1.2 s (1.1–1.4 s over 3 loads)" when there were several samples, else "1.2 s"; samples taken
 * over from recent captures of the page are counted as such ("over 3 loads, 2 in earlier runs").
 */
function withSpread(metric: Metric, e: Extraction, value: number): string {
  const r = metric.range(e);
  const n = e.timing.samples?.length ?? 1;
  const earlier = e.timing.samples?.filter((s) => s.fromRunAt).length ?? 0;
  const runs = earlier > 0 ? `, ${earlier} in earlier runs` : "";
  return r && n > 1 ? `${ms(value)} (${ms(r.min)}–${ms(r.max)} over ${n} loads${runs})` : ms(value);
}

function slower(metric: Metric, { page, others }: { page: RuleSnapshot; others: RuleSnapshot[] }): Draft | null {
  const mine = metric.pick(page.extraction);
  if (mine === null || !Number.isFinite(mine)) return null;
  const fastest = best(others, metric.pick);
  const behind =
    fastest !== null &&
    mine >= fastest.value * 1.5 &&
    mine - fastest.value >= metric.minGap &&
    beyondSpread(metric, page.extraction, fastest.page.extraction);
  if (!behind && mine < metric.poor) return null;
  const evidence: Record<string, string> = { [`${page.label} ${metric.name}`]: withSpread(metric, page.extraction, mine) };
  for (const o of others) {
    const v = metric.pick(o.extraction);
    if (v !== null) evidence[`${o.label} ${metric.name}`] = withSpread(metric, o.extraction, v);
  }
  const profile = page.extraction.timing.profile;
  if (profile === "lighthouse-mobile") evidence["Timing profile"] = "Lighthouse mobile preset (slow 4G, 4× CPU)";
  // Figures from another browser build would read differently (the headless shell paints sooner).
  if (page.extraction.timing.browser) evidence["Measured in"] = page.extraction.timing.browser;
  const how = metric.method?.(page.extraction);
  if (how) evidence[`${metric.name} measured by`] = how;
  const c = culprit(page.extraction);
  if (c) evidence["Largest resource"] = c.text;
  const title = behind
    ? `${page.label}'s ${metric.name} is ${ms(mine)} against ${ms(fastest!.value)} for ${fastest!.page.label} (${page.viewport})`
    : `${page.label}'s ${metric.name} is ${ms(mine)} on ${page.viewport}`;
  return {
    group: "timing",
    severity: mine >= metric.high ? "high" : mine >= metric.poor || behind ? "medium" : "low",
    title: c && metric.id === "lcp" ? `${title}: ${c.text}` : title,
    evidence,
    fix: c && metric.id === "lcp" ? weightFix(c, `Cut the ${metric.name}`) : metric.genericFix,
  };
}

const metricRules: Rule[] = metrics.map((m) => ({ id: `${m.id}-slow`, run: (ctx) => slower(m, ctx) }));

/** How far one load's figure may sit from the page's typical one (two loads within this agree; capture/timing/timing-samples.ts). */
const LOAD_NOISE = 0.25;

/**
 * Which of one viewport's pages, timed with one load each, could be in a timing finding once they
 * have more loads: either side of a pair that the rules above would call behind if each figure
 * moved by a load's noise towards a finding, or a page that noise could take past a poor threshold.
 * Only these are worth more loads (a page outside every such pair can't be named slow, nor be
 * the fastest a slow page is measured against); a page with no LCP at all is loaded again too.
 * Pure: the run asks this once every page of the viewport is in.
 */
export function timingFindingReach(pages: readonly Pick<Extraction["timing"], "fcpMs" | "lcpMs">[]): boolean[] {
  const reach = pages.map((p) => p.lcpMs === null);
  for (const m of metrics) {
    if (!m.sampled || (m.field !== "lcpMs" && m.field !== "fcpMs")) continue;
    const values = pages.map((p) => p[m.field as "lcpMs" | "fcpMs"]);
    values.forEach((v, i) => {
      if (v !== null && v * (1 + LOAD_NOISE) >= m.poor) reach[i] = true;
    });
    values.forEach((slow, i) =>
      values.forEach((fast, j) => {
        if (i === j || slow === null || fast === null) return;
        const hi = slow * (1 + LOAD_NOISE);
        const lo = fast * (1 - LOAD_NOISE);
        if (hi >= lo * 1.5 && hi - lo >= m.minGap) reach[i] = reach[j] = true;
      }),
    );
  }
  return reach;
}

const HEAVY = 3 * 1024 * 1024;

const times = (x: number) => (x >= 10 ? `${Math.round(x)}×` : `${x.toFixed(1)}×`);

const pageWeight: Rule = {
  id: "page-weight",
  run({ page, others }) {
    const mine = page.extraction.timing.bytes;
    if (!(mine > 0)) return null;
    const lightest = best(others, (e) => (e.timing.bytes > 0 ? e.timing.bytes : null));
    const behind = lightest !== null && mine >= lightest.value * 2 && mine - lightest.value >= 512 * 1024;
    if (!behind && mine < HEAVY) return null;
    const evidence: Record<string, string> = {
      [`${page.label} page weight`]: `${bytes(mine)} in ${page.extraction.timing.requests} requests`,
    };
    for (const o of others)
      if (o.extraction.timing.bytes > 0)
        evidence[`${o.label} page weight`] = `${bytes(o.extraction.timing.bytes)} in ${o.extraction.timing.requests} requests`;
    const c = culprit(page.extraction);
    if (c) evidence["Largest resource"] = c.text;
    return {
      group: "timing",
      severity: mine >= HEAVY * 2 ? "high" : "medium",
      title: behind
        ? `${page.label} downloads ${bytes(mine)} on ${page.viewport}, ${times(mine / lightest!.value)} ${lightest!.page.label}`
        : `${page.label} downloads ${bytes(mine)} on ${page.viewport}`,
      evidence,
      fix: c
        ? weightFix(c, "Lighten the page")
        : "Compress images, drop unused scripts and fonts, and lazy-load everything below the first screen.",
    };
  },
};

const layoutShift: Rule = {
  id: "layout-shift",
  run({ page, others }) {
    const cls = page.extraction.timing.cls;
    if (cls === null || cls <= 0.1) return null;
    const evidence: Record<string, string> = { [`${page.label} CLS`]: cls.toFixed(2), "Good threshold": "0.10" };
    for (const o of others) if (o.extraction.timing.cls !== null) evidence[`${o.label} CLS`] = o.extraction.timing.cls.toFixed(2);
    return {
      group: "timing",
      severity: cls > 0.25 ? "high" : "medium",
      title: `${page.label}'s layout shifts while loading on ${page.viewport} (CLS ${cls.toFixed(2)})`,
      evidence,
      fix: "Give images and embeds width/height (or aspect-ratio), reserve space for banners, and load web fonts with size-adjusted fallbacks.",
    };
  },
};

export const timingRules: Rule[] = [...metricRules, pageWeight, layoutShift];
