// What changed on each target between two runs of a comparison, from what the runs stored: the
// extractions (design meaning: copy, CTAs, palette, typography, layout, meta, timing) and the
// screenshot files (visual). The detection itself is the watch module's (src/modules/watch/changes,
// docs/decisions/0006-change-detection.md); this file feeds it from the run history.
import { existsSync } from "node:fs";
import { decodePng, type RgbaImage } from "../analysis/image";
import type { Extraction, Viewport } from "../capture/model";
import type { ScreenshotFiles } from "../comparisons/files";
import type { RunRow, SnapshotRow, TargetRow } from "../comparisons/repository";
import { RUN_VIEWPORTS } from "../comparisons/runner";
import type { TargetChanges } from "../watch/alerts/model";
import { detectChanges } from "../watch/changes/detect";
import { visualDiff, type VisualDiff } from "../watch/changes/visual";
import type { HistoryRepository } from "./repository";

/** Earlier captures a timing change is judged against (the target's own noise). */
const TIMING_HISTORY = 12;

export interface ChangeSources {
  repo: HistoryRepository;
  files: ScreenshotFiles;
}

const pageKey = (targetId: string, viewport: Viewport) => `${targetId}|${viewport}`;

function byPage(rows: SnapshotRow[]): Map<string, SnapshotRow> {
  return new Map(rows.map((s) => [pageKey(s.target_id, s.viewport), s]));
}

async function loadPng(files: ScreenshotFiles, s: SnapshotRow): Promise<RgbaImage | null> {
  const path = files.toAbsolute(s.screenshot_path);
  if (!existsSync(path)) return null;
  return decodePng(new Uint8Array(await Bun.file(path).arrayBuffer()));
}

/** The pixel diff of two stored screenshots; null when a file is missing. */
export async function pixelDiff(files: ScreenshotFiles, before: SnapshotRow, after: SnapshotRow): Promise<VisualDiff | null> {
  const [a, b] = await Promise.all([loadPng(files, before), loadPng(files, after)]);
  return a && b ? visualDiff(a, b) : null;
}

/** One page (target at a viewport) between two runs. */
async function pageChanges(src: ChangeSources, from: RunRow, before: SnapshotRow, after: SnapshotRow) {
  const timings = src.repo.timings(before.target_id, before.viewport, from.comparison_id, from.number, TIMING_HISTORY);
  // Byte-identical screenshots (the common case for an unchanged page: re-captures of a static
  // page come out the same, see bench/history-storage.bench.ts) cannot differ in pixels: no decode.
  const same = before.content_hash !== null && before.content_hash === after.content_hash;
  return detectChanges({
    before: JSON.parse(before.extraction) as Extraction,
    after: JSON.parse(after.extraction) as Extraction,
    timingHistory: timings.reverse(),
    visual: same ? null : await pixelDiff(src.files, before, after),
  });
}

/**
 * Every target of the comparison with its changes from `from` to `to`, desktop before mobile. A
 * target not captured at a viewport in both runs has nothing to compare there. Pixel diffs run
 * on this thread: it yields between pages so requests are served in between.
 */
export async function changesBetween(src: ChangeSources, ownerId: string, targets: TargetRow[], from: RunRow, to: RunRow): Promise<TargetChanges[]> {
  const before = byPage(src.repo.runSnapshots(from.id, ownerId));
  const after = byPage(src.repo.runSnapshots(to.id, ownerId));
  const out: TargetChanges[] = [];
  for (const t of targets) {
    const changes = [];
    for (const viewport of RUN_VIEWPORTS) {
      const a = before.get(pageKey(t.id, viewport));
      const b = after.get(pageKey(t.id, viewport));
      if (!a || !b) continue;
      changes.push(...(await pageChanges(src, from, a, b)));
      await Bun.sleep(0);
    }
    out.push({ targetId: t.id, label: t.label, url: t.url, changes });
  }
  return out;
}
