// What changed on each target between two runs of a comparison, from what the runs stored: the
// extractions (design meaning: copy, CTAs, palette, typography, layout, meta, timing) and the
// screenshots (visual), from whichever store holds them. The detectors are in ./detect (docs/decisions/0006-change-detection.md);
// this file feeds them from the run history.
import type { Box, Extraction } from "#server/modules/capture/model";
import type { ScreenshotFiles } from "#server/modules/comparisons/files";
import type { RunRow, SnapshotRow, TargetRow } from "#server/modules/comparisons/repository";
import { RUN_VIEWPORTS } from "#server/modules/comparisons/public";
import { detectChanges } from "./detect/detect";
import type { TimingSample } from "./detect/timing";
import type { VisualDiff } from "./detect/visual";
import { mergeVolatility, volatilityOf, type Volatility } from "#server/modules/capture/public";
import type { ChangePlace, RunReads, TargetChanges } from "./model";
import type { ChangesRepository } from "./repository";
import type { PixelsWorker } from "./worker/pixels";

/** Earlier captures a timing change is judged against (the target's own noise), and whose volatility counts. */
const HISTORY_DEPTH = 12;

export interface ChangeSources {
  runs: Pick<RunReads, "runSnapshots">;
  repo: ChangesRepository;
  files: ScreenshotFiles;
  pixels: PixelsWorker;
}

/** One page of a site, in one colour scheme, at one viewport: only the same page's captures are compared (rows from before pages: by target). */
const pageKey = (s: SnapshotRow) => `${s.page_id ?? s.target_id}|${s.color_scheme ?? "light"}|${s.viewport}`;

function byPage(rows: SnapshotRow[]): Map<string, SnapshotRow> {
  return new Map(rows.map((s) => [pageKey(s), s]));
}

/**
 * Runs `work` on local files of both screenshots (the stored files, or copies of an object
 * store's), removed afterwards; null when one is gone.
 */
export async function withScreenshotPair<T>(
  files: ScreenshotFiles,
  before: SnapshotRow,
  after: SnapshotRow,
  work: (a: string, b: string) => Promise<T>,
): Promise<T | null> {
  const local = await files.local([before.screenshot_path, after.screenshot_path]);
  if (!local) return null;
  try {
    return await work(local.paths[0]!, local.paths[1]!);
  } finally {
    await local.release();
  }
}

/** The pixel diff of two stored screenshots (in the pixels worker); null when a file is missing. */
async function pixelDiff(src: ChangeSources, before: SnapshotRow, after: SnapshotRow, mask: Box[]): Promise<VisualDiff | null> {
  const summary = await withScreenshotPair(src.files, before, after, (a, b) => src.pixels.diff(a, b, mask));
  if (!summary) return null;
  return {
    ...summary,
    heatmap: () => {
      throw new Error("the heat map is drawn by the pixels worker");
    },
  };
}

/** A page's earlier captures (newest first): timing samples for its noise, volatility reports for what moves on it. */
async function pageHistory(src: Pick<ChangeSources, "repo">, from: RunRow, before: SnapshotRow) {
  const rows = await src.repo.pageHistory(before.target_id, before.viewport, from.comparison_id, from.number, HISTORY_DEPTH, {
    pageId: before.page_id ?? null,
    colorScheme: before.color_scheme ?? "light",
  });
  return {
    timings: rows.flatMap((r) => (r.timing ? [JSON.parse(r.timing) as TimingSample] : [])),
    volatility: rows.flatMap((r) => (r.volatility ? [volatilityOf({ volatility: JSON.parse(r.volatility) as unknown })] : [])),
  };
}

/**
 * What moves by itself on a page: the volatility reports of the two captures and of the page's
 * earlier captures (a rotation seen once stays known).
 */
export async function pageVolatility(
  src: Pick<ChangeSources, "repo">,
  from: RunRow,
  before: SnapshotRow,
  after: SnapshotRow,
): Promise<Volatility> {
  const earlier = await pageHistory(src, from, before);
  const afterX = JSON.parse(after.extraction) as Extraction;
  // Masked parts first: the merge keeps a bounded number of boxes.
  return mergeVolatility(maskedOf(JSON.parse(before.extraction) as Extraction, afterX), ...earlier.volatility, volatilityOf(afterX));
}

/**
 * What either capture masked (a consent banner left on screen), as a part of the page whose
 * differences are not changes: the pixel diff leaves it out, and no CTA or copy inside it counts.
 */
function maskedOf(before: Extraction, after: Extraction): Volatility | null {
  const boxes = [...(before.masks ?? []), ...(after.masks ?? [])];
  return boxes.length === 0 ? null : { texts: [], boxes, colors: [], fading: false };
}

/** One page (target at a viewport) between two runs. */
async function pageChanges(src: ChangeSources, from: RunRow, before: SnapshotRow, after: SnapshotRow) {
  // `from`'s capture (`before`) is the newest of the page's history.
  const earlier = await pageHistory(src, from, before);
  const beforeX = JSON.parse(before.extraction) as Extraction;
  const afterX = JSON.parse(after.extraction) as Extraction;
  const volatility = mergeVolatility(maskedOf(beforeX, afterX), ...earlier.volatility, volatilityOf(afterX));
  // Byte-identical screenshots (the common case for an unchanged page: re-captures of a static
  // page come out the same, see bench/history-storage.bench.ts) cannot differ in pixels: no decode.
  const same = before.content_hash !== null && before.content_hash === after.content_hash;
  return detectChanges({
    before: beforeX,
    after: afterX,
    timingHistory: earlier.timings.reverse(),
    volatility,
    visual: same ? null : await pixelDiff(src, before, after, volatility.boxes),
  });
}

/** The page a capture is of (a row from before pages: the site's home page, in light). */
export function placeOf(s: SnapshotRow, t: TargetRow): ChangePlace {
  return {
    pageId: s.page_id ?? null,
    role: s.role ?? "home",
    path: s.path ?? (URL.canParse(t.url) ? new URL(t.url).pathname : "/"),
    colorScheme: s.color_scheme ?? "light",
  };
}

/**
 * Every target of the comparison with its changes from `from` to `to`, desktop before mobile. A
 * target not captured at a viewport in both runs has nothing to compare there.
 */
export async function changesBetween(
  src: ChangeSources,
  ownerId: string,
  targets: TargetRow[],
  from: RunRow,
  to: RunRow,
): Promise<TargetChanges[]> {
  const before = byPage(await src.runs.runSnapshots(from.id, ownerId));
  // The run's captures in its order (site, page, scheme, viewport), so each site's changes list its pages in order, desktop before mobile.
  const after = await src.runs.runSnapshots(to.id, ownerId);
  const out: TargetChanges[] = [];
  for (const t of targets) {
    const changes = [];
    for (const b of after) {
      if (b.target_id !== t.id || !RUN_VIEWPORTS.includes(b.viewport)) continue;
      const a = before.get(pageKey(b));
      // A page whose steps stopped was not measured in that run: nothing to compare.
      if (!a || a.step || b.step) continue;
      const found = await pageChanges(src, from, a, b);
      const where = placeOf(b, t);
      changes.push(...found.map((c) => ({ ...c, ...where })));
    }
    out.push({ targetId: t.id, label: t.label, url: t.url, changes });
  }
  return out;
}
