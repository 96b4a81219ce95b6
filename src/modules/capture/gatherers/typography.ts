// Typography gatherer: which families, sizes and weights the visible text uses (by characters),
// the style of the first heading at each level, and the body text style.

import type { Extraction } from "../model";
import { levelOf } from "../page/headings";
import type { Scan } from "../page/scan";
import { tally } from "../page/shares";
import { firstFamily, tenth } from "../page/strings";

export type TypographyMeasurement = Extraction["typography"];

export function gatherTypography(scan: Scan): TypographyMeasurement {
  const runs = scan.runs();
  const families = new Map<string, number>();
  const sizes = new Map<number, number>();
  const weights = new Map<number, number>();
  for (const r of runs) {
    tally(families, r.family, r.chars);
    tally(sizes, r.sizePx, r.chars);
    tally(weights, r.weight, r.chars);
  }
  const totalChars = runs.reduce((a, r) => a + r.chars, 0) || 1;
  const share = (n: number) => Math.round((n / totalChars) * 10000) / 10000;
  const body = scan.bodyRun();
  return {
    families: [...families.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([family, n]) => ({ family, share: share(n) })),
    sizeScale: [...sizes.entries()]
      .sort((a, b) => b[0] - a[0])
      .slice(0, 16)
      .map(([px, n]) => ({ px, share: share(n) })),
    weights: [...weights.entries()].sort((a, b) => b[1] - a[1]).map(([weight, n]) => ({ weight, share: share(n) })),
    headings: headingStyles(scan),
    body: body ? { family: body.family, sizePx: body.sizePx, weight: body.weight, lineHeightPx: body.lineHeightPx } : null,
  };
}

/** The style of the first rendered heading at each level. */
function headingStyles(scan: Scan): TypographyMeasurement["headings"] {
  const out: TypographyMeasurement["headings"] = [];
  const headings = scan.headingElements();
  for (let level = 1; level <= 6; level++) {
    const el = headings.find((h) => levelOf(h) === level);
    if (!el) continue;
    const s = scan.style(el);
    const lh = parseFloat(s.lineHeight);
    // "normal" line height: the heading's height over its line count.
    const lineHeight = Number.isFinite(lh) ? lh : el.getBoundingClientRect().height / Math.max(1, el.getClientRects().length);
    out.push({
      level,
      family: firstFamily(s.fontFamily),
      sizePx: tenth(parseFloat(s.fontSize) || 16),
      weight: parseInt(s.fontWeight, 10) || 400,
      lineHeightPx: tenth(lineHeight),
    });
  }
  return out;
}
