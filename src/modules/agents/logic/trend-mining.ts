// TrendHunter's mining: which design choices most captured sites share. A pattern is a trend when
// the posterior chance that a majority of sites use it (uniform prior on the share), corrected for
// the number of categories looked at, clears the confidence threshold. That chance grows with the
// sample, so two sites never make a trend.
import type { Extraction } from "#server/modules/capture/model";
import { chanceOfMajority } from "./binomial";
import { hueFamily, normalizeHex } from "./color";

export const TREND_TYPES = ["color", "typography", "theme", "layout", "cta", "performance", "findings", "keywords"] as const;
export type TrendType = (typeof TREND_TYPES)[number];

/** Fewer sites than this never make a trend, whatever the share. */
export const MIN_SUPPORT = 3;
/** Text-derived patterns (finding titles) also need this many different owners, so one user's labels never surface. */
export const MIN_OWNERS_FOR_TEXT = 2;
/** A share moving this much between the older and newer half of the captures counts as rising/falling. */
export const DIRECTION_DELTA = 0.15;

export interface SiteObservation {
  /** The site (siteOf): observations are grouped by it. */
  host: string;
  snapshotId: string;
  comparisonId: string;
  ownerId: string;
  capturedAt: string;
  /** Parsed from the snapshot row; treated as untrusted (fields may be missing). */
  extraction: Partial<Extraction>;
  /** Normalised finding titles about this target, or null when its comparison has no findings. */
  findings: string[] | null;
}

export interface EvidenceRef {
  ownerId: string;
  comparisonId: string;
}
export interface EvidenceItem {
  host: string;
  snapshotId: string;
  capturedAt: string;
  refs: EvidenceRef[];
}

export interface MinedTrend {
  key: string;
  type: TrendType;
  title: string;
  description: string;
  support: number;
  sampleSize: number;
  share: number;
  /** 0..100 */
  confidence: number;
  direction: "rising" | "falling" | "steady" | null;
  directionBasis: { earlyShare: number; lateShare: number; earlyN: number; lateN: number } | null;
  evidence: EvidenceItem[];
}

export interface MiningOptions {
  types: readonly TrendType[];
  keywords: readonly string[];
  useFindings: boolean;
  useSnapshots: boolean;
}

interface Feature {
  type: TrendType;
  id: string;
  /** Category of one site, or null when the site doesn't tell. */
  extract(o: SiteObservation): string | null;
  /** Only these categories may become trends (e.g. "flagged", not "clear"). */
  reportable?: (category: string) => boolean;
  label(category: string): { title: string; description: string };
  textDerived?: boolean;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The site a target URL names: a site is a page by its URL, not its host, so two targets on one
 * host (a pricing page and a home page, or fixture pages on 127.0.0.1) are two sites. Normalised
 * so spellings of one page meet: no scheme, no "www.", no default port, no fragment, no trailing
 * slash, query parameters sorted.
 */
export function siteOf(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    // `host` leaves out the scheme's default port.
    const host = u.host.toLowerCase().replace(/^www\./, "");
    const path = u.pathname.replace(/\/+$/, "");
    u.searchParams.sort();
    const query = u.searchParams.toString();
    return `${host}${path}${query ? `?${query}` : ""}`;
  } catch {
    return null;
  }
}

/** The host alone, for names derived from a site (component prefixes), never as a site's key. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

export function normalizeFontFamily(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const first = raw
    .split(",")[0]
    ?.trim()
    .replace(/^["']|["']$/g, "")
    .trim()
    .toLowerCase();
  if (!first) return null;
  if (/^(-apple-system|system-ui|blinkmacsystemfont|segoe ui|ui-sans-serif)$/.test(first)) return "system ui";
  return first.replace(/[^a-z0-9 -]/g, "").slice(0, 40) || null;
}

/** Finding titles differ in the numbers they quote; those and quoted names are dropped before comparing. */
export function normalizeFindingTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/["“”'‘’][^"“”'‘’]*["“”'‘’]/g, " ")
    .replace(/[0-9]+(?:[.,:][0-9]+)*(?:\s*(?:%|ms|s|kb|mb|px)\b)?/g, "#")
    .replace(/[^a-z# ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80);
}

function accentColour(e: Partial<Extraction>): string | null {
  const candidates = [...(e.palette?.buttons ?? []), ...(e.palette?.dominant ?? [])];
  for (const c of candidates) {
    const hex = normalizeHex(c?.hex);
    if (hex && hueFamily(hex) !== "monochrome") return hex;
  }
  const first = normalizeHex(candidates[0]?.hex);
  return first ?? null;
}

function heroAlignment(e: Partial<Extraction>): string | null {
  const regions = e.layout?.regions;
  if (!Array.isArray(regions)) return null;
  const hero = regions.find((r) => r?.kind === "hero");
  if (!hero) return "none";
  const h1 = (e.elements?.headings ?? []).find((h) => h?.level === 1 && h.aboveFold) ?? (e.elements?.headings ?? [])[0];
  if (!h1?.box) return null;
  const pageWidth = e.viewport === "mobile" ? 390 : 1440;
  const centre = h1.box.x + h1.box.width / 2;
  return Math.abs(centre - pageWidth / 2) <= pageWidth * 0.1 ? "centered" : "left-aligned";
}

const FIXED_FEATURES: Feature[] = [
  {
    type: "color",
    id: "accent",
    extract: (o) => {
      const hex = accentColour(o.extraction);
      return hex ? hueFamily(hex) : null;
    },
    label: (c) =>
      c === "monochrome"
        ? { title: "Monochrome palettes", description: "No saturated accent: buttons and dominant colours are greys, black or white." }
        : {
            title: `${cap(c)} accents`,
            description: `The primary accent (button colour first, else the most prominent saturated colour) is in the ${c} family.`,
          },
  },
  {
    type: "typography",
    id: "font",
    extract: (o) => normalizeFontFamily(o.extraction.typography?.body?.family ?? o.extraction.typography?.families?.[0]?.family),
    label: (c) => ({
      title: `${c === "system ui" ? "System UI" : c.replace(/\b\w/g, (m) => m.toUpperCase())} as the main typeface`,
      description: `Body text is set in ${c}.`,
    }),
  },
  {
    type: "theme",
    id: "theme",
    extract: (o) => (typeof o.extraction.palette?.isDark === "boolean" ? (o.extraction.palette.isDark ? "dark" : "light") : null),
    label: (c) =>
      c === "dark"
        ? { title: "Dark pages", description: "The page background measured from the screenshot's pixels is dark." }
        : { title: "Light pages", description: "The page background measured from the screenshot's pixels is light." },
  },
  {
    type: "layout",
    id: "hero",
    extract: (o) => heroAlignment(o.extraction),
    label: (c) =>
      c === "none"
        ? { title: "No hero section", description: "No hero region was detected at the top of the page." }
        : {
            title: `${cap(c)} hero headline`,
            description: `A hero region with its main headline ${c === "centered" ? "centred on the page" : "aligned to the left"}.`,
          },
  },
  {
    type: "cta",
    id: "cta-fold",
    extract: (o) =>
      Array.isArray(o.extraction.elements?.ctas) ? (o.extraction.elements.ctas.some((c) => c?.aboveFold) ? "above" : "below") : null,
    label: (c) =>
      c === "above"
        ? { title: "Call to action above the fold", description: "At least one call-to-action button is visible without scrolling." }
        : { title: "No call to action above the fold", description: "Visitors must scroll before they meet a call-to-action button." },
  },
  {
    type: "performance",
    id: "weight",
    extract: (o) => {
      const bytes = o.extraction.timing?.bytes;
      if (typeof bytes !== "number" || bytes <= 0) return null;
      return bytes < 1_000_000 ? "light" : bytes <= 3_000_000 ? "medium" : "heavy";
    },
    label: (c) =>
      ({
        light: { title: "Pages under 1 MB", description: "The whole page, with every resource, transfers less than 1 MB." },
        medium: { title: "Pages of 1–3 MB", description: "The page transfers between 1 and 3 MB." },
        heavy: { title: "Pages over 3 MB", description: "The page transfers more than 3 MB." },
      })[c] ?? { title: c, description: c },
  },
  {
    type: "performance",
    id: "lcp",
    extract: (o) => {
      const lcp = o.extraction.timing?.lcpMs;
      if (typeof lcp !== "number" || lcp <= 0) return null;
      return lcp <= 2500 ? "good" : lcp <= 4000 ? "needs-improvement" : "poor";
    },
    label: (c) =>
      ({
        good: { title: "Fast LCP (2.5 s or less)", description: "Largest Contentful Paint within Google's 'good' threshold." },
        "needs-improvement": { title: "LCP between 2.5 and 4 s", description: "Largest Contentful Paint in the 'needs improvement' band." },
        poor: { title: "Slow LCP (over 4 s)", description: "Largest Contentful Paint beyond 4 seconds." },
      })[c] ?? { title: c, description: c },
  },
];

function findingFeatures(obs: SiteObservation[]): Feature[] {
  const titles = new Set<string>();
  for (const o of obs) for (const t of o.findings ?? []) titles.add(t);
  return [...titles].sort().map((t) => ({
    type: "findings" as const,
    id: `finding:${t}`,
    textDerived: true,
    extract: (o: SiteObservation) => (o.findings ? (o.findings.includes(t) ? "flagged" : "clear") : null),
    reportable: (c: string) => c === "flagged",
    label: () => ({
      title: `Recurring finding: ${cap(t.replace(/#/g, "N"))}`,
      description: "The comparison analysis flagged this on most analysed sites.",
    }),
  }));
}

function keywordFeatures(keywords: readonly string[]): Feature[] {
  return keywords.map((k) => {
    const needle = k.toLowerCase();
    return {
      type: "keywords" as const,
      id: `keyword:${needle}`,
      extract: (o: SiteObservation) => {
        const text = `${o.extraction.copy?.headline ?? ""} ${o.extraction.copy?.visibleText ?? ""}`.toLowerCase();
        if (!text.trim()) return null;
        return text.includes(needle) ? "mentions" : "absent";
      },
      reportable: (c: string) => c === "mentions",
      label: () => ({ title: `Copy mentions “${k}”`, description: `The headline or visible text contains “${k}”.` }),
    };
  });
}

/** The latest observation per host; a host captured by several users keeps every (owner, comparison) as a reference. */
export function latestPerHost(obs: SiteObservation[]): { latest: SiteObservation; refs: EvidenceRef[] }[] {
  const byHost = new Map<string, { latest: SiteObservation; refs: Map<string, EvidenceRef> }>();
  for (const o of obs) {
    const cur = byHost.get(o.host);
    if (!cur) {
      byHost.set(o.host, {
        latest: o,
        refs: new Map([[`${o.ownerId}:${o.comparisonId}`, { ownerId: o.ownerId, comparisonId: o.comparisonId }]]),
      });
      continue;
    }
    cur.refs.set(`${o.ownerId}:${o.comparisonId}`, { ownerId: o.ownerId, comparisonId: o.comparisonId });
    if (o.capturedAt > cur.latest.capturedAt) cur.latest = o;
  }
  return [...byHost.values()].map((v) => ({ latest: v.latest, refs: [...v.refs.values()] }));
}

function shareOf(feature: Feature, category: string, sites: SiteObservation[]): { k: number; n: number } {
  let k = 0;
  let n = 0;
  for (const s of sites) {
    const c = safeExtract(feature, s);
    if (c === null) continue;
    n++;
    if (c === category) k++;
  }
  return { k, n };
}

function safeExtract(f: Feature, o: SiteObservation): string | null {
  try {
    return f.extract(o);
  } catch {
    return null;
  }
}

/** Mines every enabled feature; the caller applies the threshold and the result cap. */
export function minePatterns(observations: SiteObservation[], opts: MiningOptions): MinedTrend[] {
  if (!observations.length) return [];
  const sorted = [...observations].sort((a, b) => a.capturedAt.localeCompare(b.capturedAt));
  const current = latestPerHost(sorted);
  // Direction: the older and the newer half of all captures, each reduced to its latest per host.
  const mid = Math.floor(sorted.length / 2);
  const early = latestPerHost(sorted.slice(0, mid)).map((x) => x.latest);
  const late = latestPerHost(sorted.slice(mid)).map((x) => x.latest);

  const features: Feature[] = [];
  if (opts.useSnapshots) features.push(...FIXED_FEATURES.filter((f) => opts.types.includes(f.type)));
  if (opts.useSnapshots && opts.types.includes("keywords")) features.push(...keywordFeatures(opts.keywords));
  if (opts.useFindings && opts.types.includes("findings")) features.push(...findingFeatures(sorted));

  const out: MinedTrend[] = [];
  for (const f of features) {
    const groups = new Map<string, { latest: SiteObservation; refs: EvidenceRef[] }[]>();
    let n = 0;
    for (const site of current) {
      const c = safeExtract(f, site.latest);
      if (c === null) continue;
      n++;
      const list = groups.get(c) ?? [];
      list.push(site);
      groups.set(c, list);
    }
    for (const [category, sites] of groups) {
      if (f.reportable && !f.reportable(category)) continue;
      const k = sites.length;
      if (k < MIN_SUPPORT) continue;
      if (f.textDerived && new Set(sites.flatMap((s) => s.refs.map((r) => r.ownerId))).size < MIN_OWNERS_FOR_TEXT) continue;
      const e = shareOf(f, category, early);
      const l = shareOf(f, category, late);
      let direction: MinedTrend["direction"] = null;
      let directionBasis: MinedTrend["directionBasis"] = null;
      if (e.n >= MIN_SUPPORT && l.n >= MIN_SUPPORT) {
        const earlyShare = e.k / e.n;
        const lateShare = l.k / l.n;
        const delta = lateShare - earlyShare;
        direction = delta >= DIRECTION_DELTA ? "rising" : delta <= -DIRECTION_DELTA ? "falling" : "steady";
        directionBasis = { earlyShare, lateShare, earlyN: e.n, lateN: l.n };
      }
      const { title, description } = f.label(category);
      out.push({
        key: `${f.id}:${category}`,
        type: f.type,
        title,
        description,
        support: k,
        sampleSize: n,
        share: k / n,
        confidence: Math.round(majorityConfidence(k, n, groups.size) * 1000) / 10,
        direction,
        directionBasis,
        evidence: sites
          .map((s) => ({ host: s.latest.host, snapshotId: s.latest.snapshotId, capturedAt: s.latest.capturedAt, refs: s.refs }))
          .sort((a, b) => a.host.localeCompare(b.host)),
      });
    }
  }
  return out;
}

/**
 * The chance that most sites share the category, corrected for having looked at every category
 * the feature showed (Bonferroni): picking the largest of many buckets would otherwise turn noise
 * into "trends".
 */
export function majorityConfidence(k: number, n: number, categories: number): number {
  return Math.max(0, 1 - Math.max(1, categories) * (1 - chanceOfMajority(k, n)));
}

/** Threshold, order (most certain first, then most common) and cap, as the trend settings say. */
export function selectTrends(mined: MinedTrend[], threshold: number, maxResults: number): MinedTrend[] {
  return mined
    .filter((t) => t.confidence >= threshold)
    .sort((a, b) => b.confidence - a.confidence || b.support - a.support || a.key.localeCompare(b.key))
    .slice(0, maxResults);
}
