// Similarity and findings on real captures: the fixture sites (Alpha, a lightly edited Alpha, and
// Beta, another brand) are captured by the capture pool in Chromium at both viewports, then scored
// through the analyse worker exactly as a comparison run does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findChromium } from "#server/lib/chromium";
import { createAnalyser, type Analyser } from "#server/modules/analysis/analyser";
import { findingsFor, type RuleSnapshot } from "#server/modules/analysis/findings";
import { isDarkImage, dominantColors } from "#server/lib/image/palette";
import { decodePng } from "#server/lib/image/image";
import type { PairScores } from "#server/modules/analysis/similarity";
import type { Extraction, Viewport } from "#server/modules/capture/model";
import { CapturePool } from "#server/modules/capture/browser/pool";
import { startFixtureServer, type FixtureServer } from "#tests/support/fixture-server";

const SITES = ["alpha", "alpha-edited", "beta"] as const;
type Site = (typeof SITES)[number];
const VIEWPORTS: Viewport[] = ["desktop", "mobile"];

let fixtures: FixtureServer;
let pool: CapturePool;
let analyser: Analyser;
let dir: string;
const captured = new Map<string, { extraction: Extraction; path: string }>();
const key = (site: Site, viewport: Viewport) => `${site}|${viewport}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "analysis-e2e-"));
  fixtures = startFixtureServer();
  pool = new CapturePool({ concurrency: 2, chromiumPath: findChromium(process.env.CHROMIUM_PATH), allowPrivate: true });
  analyser = createAnalyser();
  await Promise.all(
    SITES.flatMap((site) =>
      VIEWPORTS.map(async (viewport) => {
        const path = join(dir, `${site}-${viewport}.png`);
        const result = await pool.submit("analysis-e2e", { url: fixtures.url(`/${site}/`), viewport, screenshotPath: path });
        if (!result.ok) throw new Error(`capture of ${site} (${viewport}) failed: ${result.reason}`);
        captured.set(key(site, viewport), { extraction: result.extraction, path: result.screenshotPath });
      }),
    ),
  );
}, 240_000); // six pages, two at a time, each under the pool's limits (60 s at most)

afterAll(async () => {
  analyser?.close();
  await pool?.close();
  await fixtures?.close();
  rmSync(dir, { recursive: true, force: true });
});

function score(x: Site, y: Site, viewport: Viewport): Promise<PairScores> {
  const a = captured.get(key(x, viewport))!;
  const b = captured.get(key(y, viewport))!;
  return analyser.scorePair(a.path, a.extraction, b.path, b.extraction);
}

describe.each(VIEWPORTS)("similarity of the fixture sites (%s)", (viewport) => {
  test("identical ≈ 1, lightly edited >= 0.85, another brand clearly lower", async () => {
    const same = await score("alpha", "alpha", viewport);
    const near = await score("alpha", "alpha-edited", viewport);
    const far = await score("alpha", "beta", viewport);
    const farEdited = await score("alpha-edited", "beta", viewport);

    expect(same.overallSimilarity).toBeGreaterThan(0.99);
    expect(near.overallSimilarity).toBeGreaterThanOrEqual(0.85);
    expect(near.overallSimilarity).toBeLessThan(same.overallSimilarity);
    expect(near.overallSimilarity - far.overallSimilarity).toBeGreaterThan(0.3);
    expect(far.overallSimilarity).toBeLessThan(0.5);
    expect(farEdited.overallSimilarity).toBeLessThan(0.5);
    for (const axis of ["colorSimilarity", "layoutSimilarity", "contentSimilarity"] as const) {
      expect(near[axis]).toBeGreaterThan(far[axis]);
    }
  });

  test("order of the pair doesn't matter", async () => {
    const ab = await score("alpha", "beta", viewport);
    const ba = await score("beta", "alpha", viewport);
    expect(Math.abs(ab.overallSimilarity - ba.overallSimilarity)).toBeLessThan(0.02);
  });
});

describe("captured palettes agree with the analysis", () => {
  test("the capture's dominant colours and theme match what the analysis measures from the PNG", async () => {
    for (const site of SITES) {
      const { extraction, path } = captured.get(key(site, "desktop"))!;
      const img = decodePng(await Bun.file(path).bytes());
      expect(extraction.palette.isDark).toBe(isDarkImage(img.data, img.width, img.height));
      expect(dominantColors(img.data, img.width, img.height)[0]!.hex).toBe(extraction.palette.dominant[0]!.hex);
    }
  });
});

describe("findings on the fixture sites", () => {
  test("evidence-backed findings name the targets and measured values", () => {
    const labels: Record<Site, string> = { alpha: "Alpha", "alpha-edited": "Alpha edited", beta: "Beta" };
    const pages: RuleSnapshot[] = (["alpha", "beta"] as const).flatMap((site) =>
      VIEWPORTS.map((viewport) => ({
        targetId: site,
        label: labels[site],
        viewport,
        extraction: captured.get(key(site, viewport))!.extraction,
      })),
    );
    const findings = findingsFor(pages);
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      expect(["design", "ux", "copy", "timing"]).toContain(f.group);
      expect(
        Object.keys(f.evidence).some((k) => k.startsWith(labels[f.targetId as Site]) || k === "Worst run" || k.startsWith("WCAG")),
      ).toBe(true);
      expect(f.fix.length).toBeGreaterThan(20);
    }
    // Beta's fixture serves a multi-megabyte hero image: its timing findings must name it.
    const betaTiming = findings.filter((f) => f.targetId === "beta" && f.group === "timing");
    expect(betaTiming.length).toBeGreaterThan(0);
    expect(betaTiming.some((f) => /MB, image/.test(f.evidence["Largest resource"] ?? ""))).toBe(true);
    // Deterministic.
    expect(findingsFor(pages)).toEqual(findings);
  });
});
