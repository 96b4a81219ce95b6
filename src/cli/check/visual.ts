// `visual.maxChangedShare`: your page's screenshots against the committed baseline, per viewport.
// The pixel diff is the one change detection uses (pixelmatch with anti-aliasing ignored, specks
// dropped), with the config's ignore regions and selector boxes masked out on both sides. The first
// run has nothing to compare with: it writes the baseline and passes.
import { rmSync } from "node:fs";
import { decodePng } from "#server/lib/image/image";
import type { Box, Viewport } from "#server/modules/capture/model";
import { visualDiff } from "#server/modules/changes/public";
import { baselineSelectorBoxes, captureFiles, readCapture, writeCapture, writeFileAtomically } from "./baseline-files";
import type { CheckConfig } from "./config";
import type { SelectorBox } from "./ignore-selectors";

export interface VisualResult {
  viewport: Viewport;
  /** Share of the page's pixels that changed, 0..1; 0 when the baseline was just written. */
  changedShare: number;
  /** Regions that changed (after masking), largest first, in CSS px. */
  regions: Box[];
  /** How many boxes were masked out. */
  masked: number;
  baseline: string;
  /** Where this run's capture was kept (what `approve` promotes). */
  current: string;
  /** The `*.diff.png` written beside the results, when anything changed. */
  diff: string | null;
  baselineWritten: boolean;
}

const unique = (boxes: Box[]) => [...new Map(boxes.map((b) => [`${b.x},${b.y},${b.width},${b.height}`, b])).values()];

/** Six decimals: small enough that a budget of 0 still sees a few changed pixels. */
const share = (x: number) => Math.round(x * 1e6) / 1e6;

export function compareWithBaseline(opts: {
  config: CheckConfig;
  screenshots: Map<Viewport, Uint8Array>;
  /** The ignore selectors' boxes on this run's page, per viewport. */
  selectorBoxes: Map<Viewport, SelectorBox[]>;
  baselineDir: string;
  resultsDir: string;
  now?: Date;
}): VisualResult[] {
  const { config, baselineDir, resultsDir } = opts;
  const { label, url } = config.site;
  const capturedAt = (opts.now ?? new Date()).toISOString();
  const results: VisualResult[] = [];
  for (const viewport of config.viewports) {
    const png = opts.screenshots.get(viewport);
    if (!png) continue;
    const regions = config.ignore.regions
      .filter((r) => !r.viewport || r.viewport === viewport)
      .map(({ x, y, width, height }) => ({ x, y, width, height }));
    const masked = [...regions, ...(opts.selectorBoxes.get(viewport) ?? [])];
    const current = writeCapture(resultsDir, { url, label, viewport, capturedAt, masked }, png);
    rmSync(current.diff, { force: true }); // a diff from an earlier run must not pass for this one's

    const baseline = readCapture(baselineDir, label, viewport);
    if (!baseline) {
      const written = writeCapture(baselineDir, { url, label, viewport, capturedAt, masked }, png);
      results.push({
        viewport,
        changedShare: 0,
        regions: [],
        masked: masked.length,
        baseline: written.png,
        current: current.png,
        diff: null,
        baselineWritten: true,
      });
      continue;
    }
    const masks = unique([...baselineSelectorBoxes(baseline.note, config.ignore.selectors), ...masked]);
    const diff = visualDiff(decodePng(baseline.png), decodePng(png), masks);
    let diffPath: string | null = null;
    if (diff.changedPixels > 0) {
      diffPath = captureFiles(resultsDir, label, viewport).diff;
      writeFileAtomically(diffPath, diff.heatmap());
    }
    results.push({
      viewport,
      changedShare: share(diff.changedShare),
      regions: diff.regions,
      masked: masks.length,
      baseline: baseline.path,
      current: current.png,
      diff: diffPath,
      baselineWritten: false,
    });
  }
  return results;
}
