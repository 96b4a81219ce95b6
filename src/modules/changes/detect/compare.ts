// One target between two runs, from what the runs stored: the extractions, the screenshot files
// and the volatility reports, plus the target's earlier captures for timing noise and for
// rotations seen before, all in this thread. Decoding two full-page PNGs takes memory and a second
// or two, so the server's path (../between-runs.ts) diffs the screenshots in the pixels worker.

import { existsSync } from "node:fs";
import { decodePng } from "#server/modules/analysis/public";
import type { Extraction } from "#server/modules/capture/model";
import { detectChanges } from "./detect";
import type { DetectedChange as Change } from "../model";
import { visualDiff, type VisualDiff } from "./visual";
import { mergeVolatility, type Volatility } from "#server/modules/capture/public";

export interface CaptureRecord {
  extraction: Extraction;
  /** Absolute path of the full-page PNG; without both screenshots there is no `visual` kind. */
  screenshotPath?: string | null;
  volatility?: Volatility | null;
}

async function load(path: string | null | undefined) {
  if (!path || !existsSync(path)) return null;
  return decodePng(new Uint8Array(await Bun.file(path).arrayBuffer()));
}

export async function compareCaptures(input: {
  before: CaptureRecord;
  after: CaptureRecord;
  history?: CaptureRecord[];
}): Promise<{ changes: Change[]; visual: VisualDiff | null }> {
  const history = input.history ?? [];
  const volatility = mergeVolatility(...history.map((h) => h.volatility), input.before.volatility, input.after.volatility);
  const [a, b] = await Promise.all([load(input.before.screenshotPath), load(input.after.screenshotPath)]);
  const visual = a && b ? visualDiff(a, b, volatility.boxes) : null;
  const changes = detectChanges({
    before: input.before.extraction,
    after: input.after.extraction,
    timingHistory: [...history, input.before].map((c) => c.extraction.timing),
    volatility,
    visual,
  });
  return { changes, visual };
}
