// Pixel-side layout likeness: SSIM of grey thumbnails, band by band down the page.
//
// A lightly edited page is usually the same design shifted a little (a headline wraps onto one
// more line and everything below moves 40 px). Plain SSIM over the whole page punishes that as
// hard as a different design, so each band of page A is first aligned to page B by its row
// brightness profile (cheap 1-D search), then compared with SSIM. The first band — the part
// visible without scrolling — carries extra weight because it is what visitors judge a site by.

import { VIEWPORTS, type Viewport } from "#server/modules/capture/model";
import { cropRows, resizeGray, ssimGray, type GrayImage } from "#server/lib/image/image";

/** Bands past this many screens add little and cost time on 16 000 px pages. */
const MAX_BANDS = 10;
const FOLD_WEIGHT = 3;

export interface VisualScores {
  fold: number;
  page: number;
}

function rowMeans(img: GrayImage): Float32Array {
  const out = new Float32Array(img.height);
  for (let y = 0; y < img.height; y++) {
    let s = 0;
    const base = y * img.width;
    for (let x = 0; x < img.width; x++) s += img.data[base + x]!;
    out[y] = s / img.width;
  }
  return out;
}

/** Offset d in [-range, range] that best lines rows [top, top+h) of A up with rows [top+d, ...) of B. */
function bestOffset(pa: Float32Array, pb: Float32Array, top: number, h: number, range: number): number {
  let best = 0;
  let bestCost = Infinity;
  for (let d = -range; d <= range; d++) {
    if (top + d < 0) continue;
    let cost = 0;
    for (let t = 0; t < h; t++) {
      const vb = top + d + t < pb.length ? pb[top + d + t]! : 255;
      cost += Math.abs(pa[top + t]! - vb);
    }
    // Ties go to the smaller shift: no evidence of a move means no move.
    if (cost < bestCost - 1e-6 || (Math.abs(cost - bestCost) <= 1e-6 && Math.abs(d) < Math.abs(best))) {
      bestCost = cost;
      best = d;
    }
  }
  return best;
}

/** Compare two thumbnails (see thumbnail()) of screenshots taken at `viewport`. */
export function visualSimilarity(thumbA: GrayImage, thumbB: GrayImage, viewport: Viewport): VisualScores {
  const width = Math.min(thumbA.width, thumbB.width);
  const ta = resizeGray(thumbA, width);
  const tb = resizeGray(thumbB, width);
  const scale = width / VIEWPORTS[viewport].width;
  const band = Math.max(8, Math.round(VIEWPORTS[viewport].height * scale));
  const common = Math.min(ta.height, tb.height);
  const pa = rowMeans(ta);
  const pb = rowMeans(tb);
  const range = Math.round(band / 4);

  let weighted = 0;
  let weights = 0;
  let fold = 0;
  const bands = Math.max(1, Math.min(MAX_BANDS, Math.ceil(common / band)));
  for (let i = 0; i < bands; i++) {
    const top = i * band;
    const h = Math.min(band, common - top);
    // A sliver at the end would be mostly padding; it adds nothing the previous band didn't say.
    if (i > 0 && h < 8) break;
    const rows = Math.max(8, h);
    const d = bestOffset(pa, pb, top, Math.min(rows, ta.height - top), range);
    const s = ssimGray(cropRows(ta, top, rows), cropRows(tb, top + d, rows));
    if (i === 0) fold = s;
    // Weighted by how much page the band really covers, so a short last band counts less.
    const w = (i === 0 ? FOLD_WEIGHT : 1) * (h / band);
    weighted += s * w;
    weights += w;
  }
  return { fold, page: weighted / weights };
}
