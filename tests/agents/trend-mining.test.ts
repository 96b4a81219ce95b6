import { describe, expect, test } from "bun:test";
import { chanceOfMajority } from "#server/modules/agents/logic/binomial";
import { HUE_FAMILIES } from "#server/modules/agents/logic/color";
import { seededRandom } from "#server/modules/agents/logic/rng";
import {
  TREND_TYPES,
  latestPerHost,
  majorityConfidence,
  minePatterns,
  normalizeFindingTitle,
  selectTrends,
  type SiteObservation,
} from "#server/modules/agents/logic/trend-mining";
import { trendToDto, type TrendRow } from "#server/modules/agents/rows";
import { makeExtraction, type SiteKnobs } from "./fixtures";

const HUE_HEX: Record<string, string> = {
  red: "#dc2626",
  orange: "#ea7a0c",
  yellow: "#d4b106",
  green: "#16a34a",
  teal: "#0d9488",
  blue: "#2563eb",
  purple: "#7c3aed",
  pink: "#db2777",
};
const FONTS = ["Inter", "Roboto", "Poppins", "Lato", "Montserrat", "Source Sans Pro"];

function obs(i: number, k: Omit<SiteKnobs, "url">, extra: Partial<SiteObservation> = {}): SiteObservation {
  const url = `https://site${i}.example.com/`;
  return {
    host: `site${i}.example.com`,
    snapshotId: `snap-${i}`,
    comparisonId: `cmp-${i % 3}`,
    ownerId: `owner-${i % 3}`,
    capturedAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
    extraction: makeExtraction({ url, ...k }),
    findings: null,
    ...extra,
  };
}

const ALL = { types: TREND_TYPES, keywords: [], useFindings: true, useSnapshots: true };

/** 12 sites: 10 dark pages (the planted pattern); colour, font, hero, CTA, weight and LCP drawn at random. */
function plantedSample(seed: number): SiteObservation[] {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  return Array.from({ length: 12 }, (_, i) =>
    obs(i, {
      isDark: i < 10,
      accent: HUE_HEX[pick(HUE_FAMILIES)],
      font: pick(FONTS),
      heroCentered: pick([true, false, null]),
      ctaAboveFold: rand() < 0.5,
      bytes: pick([500_000, 2_000_000, 5_000_000]),
      lcpMs: pick([1500, 3000, 6000]),
    }),
  );
}

describe("trend mining", () => {
  test("confidence is the posterior chance of a majority, corrected for the categories examined", () => {
    expect(majorityConfidence(10, 12, 1)).toBeCloseTo(0.98876953125, 10);
    expect(majorityConfidence(10, 12, 2)).toBeCloseTo(1 - 2 * (1 - 0.98876953125), 10);
    expect(majorityConfidence(7, 12, 3)).toBeCloseTo(1 - 3 * (1 - 0.70947265625), 10);
    expect(majorityConfidence(4, 12, 8)).toBe(0);
    expect(chanceOfMajority(10, 12)).toBeCloseTo(0.98876953125, 10);
    expect(chanceOfMajority(4, 12)).toBeCloseTo(0.1334228515625, 10);
    expect(chanceOfMajority(7, 12)).toBeCloseTo(0.70947265625, 10);
  });

  test("finds the planted pattern and none of the random ones, whatever the seed", () => {
    for (let seed = 1; seed <= 25; seed++) {
      const trends = selectTrends(minePatterns(plantedSample(seed), ALL), 70, 20);
      const keys = trends.map((t) => t.key);
      expect(keys).toContain("theme:dark");
      const dark = trends.find((t) => t.key === "theme:dark")!;
      expect(dark.support).toBe(10);
      expect(dark.sampleSize).toBe(12);
      expect(dark.share).toBeCloseTo(10 / 12, 10);
      // P(majority | 10 of 12) = 0.98877, corrected for two categories (dark, light): 1 - 2 * 0.01123.
      expect(dark.confidence).toBe(97.8);
      expect(dark.evidence.map((e) => e.host)).toHaveLength(10);
      // Uniformly random features never make a majority-with-confidence.
      expect(
        keys.filter((k) => k.startsWith("accent:") || k.startsWith("font:") || k.startsWith("weight:") || k.startsWith("lcp:")),
      ).toEqual([]);
    }
  });

  test("two sites are never a trend, however alike", () => {
    const trends = selectTrends(minePatterns([obs(1, { isDark: true }), obs(2, { isDark: true })], ALL), 50, 20);
    expect(trends).toEqual([]);
  });

  test("one host captured many times counts once, with every comparison that captured it", () => {
    const same = [0, 1, 2].map((i) => ({ ...obs(i, { isDark: true }), host: "same.example.com", comparisonId: `c${i}`, ownerId: `o${i}` }));
    const sites = latestPerHost(same);
    expect(sites).toHaveLength(1);
    expect(sites[0]!.latest.snapshotId).toBe("snap-2");
    expect(sites[0]!.refs.map((r) => r.comparisonId).sort()).toEqual(["c0", "c1", "c2"]);
    // Three captures of one site are one site: below the minimum support.
    expect(minePatterns(same, ALL).find((t) => t.key === "theme:dark")).toBeUndefined();
  });

  test("direction compares the older and newer half of the captures", () => {
    const sites = Array.from({ length: 12 }, (_, i) => obs(i, { ctaAboveFold: i >= 4 }));
    const cta = minePatterns(sites, ALL).find((t) => t.key === "cta-fold:above")!;
    expect(cta.direction).toBe("rising");
    expect(cta.directionBasis!.earlyShare).toBeCloseTo(2 / 6, 10);
    expect(cta.directionBasis!.lateShare).toBe(1);
  });

  test("findings patterns need several owners; keywords come from the settings", () => {
    const title = normalizeFindingTitle('"Acme" body text contrast 3.1:1 is below AA at 16px');
    expect(title).toBe(normalizeFindingTitle('"Beta Co" body text contrast 2.4:1 is below AA at 14 px'));
    expect(title).toBe("body text contrast # is below aa at #");
    const oneOwner = Array.from({ length: 6 }, (_, i) => obs(i, {}, { ownerId: "solo", findings: [title] }));
    expect(minePatterns(oneOwner, ALL).some((t) => t.type === "findings")).toBe(false);
    const many = Array.from({ length: 6 }, (_, i) => obs(i, {}, { findings: [title] }));
    expect(minePatterns(many, ALL).find((t) => t.type === "findings")?.support).toBe(6);

    const kw = Array.from({ length: 8 }, (_, i) => obs(i, { text: i < 7 ? "Now with AI copilots" : "Plain" }));
    const withKw = minePatterns(kw, { ...ALL, keywords: ["copilot"] }).find((t) => t.key === "keyword:copilot:mentions");
    expect(withKw?.support).toBe(7);
    expect(minePatterns(kw, { ...ALL, keywords: [] }).some((t) => t.type === "keywords")).toBe(false);
  });

  test("trend types switched off in the settings are not mined", () => {
    const trends = minePatterns(plantedSample(3), { ...ALL, types: ["color", "typography"] });
    expect(trends.some((t) => t.type === "theme")).toBe(false);
  });

  test("evidence: admins see every site, users only their own, live messages none", () => {
    const mined = minePatterns(plantedSample(4), ALL).find((t) => t.key === "theme:dark")!;
    const row: TrendRow = {
      id: "t1",
      pattern_key: mined.key,
      category: mined.type,
      title: mined.title,
      description: mined.description,
      support: mined.support,
      sample_size: mined.sampleSize,
      share: mined.share,
      direction: mined.direction,
      direction_basis: JSON.stringify(mined.directionBasis),
      confidence: mined.confidence,
      strong: 1,
      evidence: JSON.stringify(mined.evidence),
      active: 1,
      discovered_at: "x",
      updated_at: "x",
    };
    expect(trendToDto(row, { id: "admin", role: "admin" }).evidence).toHaveLength(10);
    const mine = trendToDto(row, { id: "owner-1", role: "user" });
    expect(mine.evidenceScope).toBe("yours");
    expect(mine.evidence.length).toBeGreaterThan(0);
    expect(mine.evidence.every((e) => e.comparisonIds.every((c) => c === "cmp-1"))).toBe(true);
    expect(trendToDto(row, { id: "stranger", role: "user" }).evidence).toEqual([]);
    expect(trendToDto(row, null).evidence).toEqual([]);
  });

  test("broken extraction JSON doesn't break the scan", () => {
    const broken = { ...obs(1, {}), extraction: { palette: null, typography: "x" } as never };
    expect(() => minePatterns([broken, ...plantedSample(5)], ALL)).not.toThrow();
  });
});
