// Type likeness: which families carry the text, the size ladder, and the body/headline settings.

import type { Extraction } from "#server/modules/capture/model";
import { normaliseFamily } from "#server/modules/capture/public";
import { ratioSimilarity } from "./layout";

type Typography = Extraction["typography"];

// Case, quotes and known renames (Muli -> Mulish) are folded here, shared with the capture.
export { normaliseFamily };

/** Histogram intersection of two share distributions keyed by `key`. */
function intersection<T>(a: T[], b: T[], key: (t: T) => string, share: (t: T) => number): number | null {
  const sum = (xs: T[]) => {
    const m = new Map<string, number>();
    for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + Math.max(0, share(x)));
    const total = [...m.values()].reduce((s, v) => s + v, 0);
    return total > 0 ? new Map([...m].map(([k, v]) => [k, v / total])) : null;
  };
  const ma = sum(a);
  const mb = sum(b);
  if (!ma || !mb) return ma === mb ? null : 0;
  let both = 0;
  for (const [k, v] of ma) both += Math.min(v, mb.get(k) ?? 0);
  return both;
}

export interface TypographyScores {
  families: number;
  scale: number;
  body: number;
  headline: number;
  /** Weight mix; only part of the blend when both pages have rendered fonts (captures without rendered fonts use the declared-families blend). */
  weights: number;
  /** Whether the families compared are the ones drawn (true) or the ones declared. */
  rendered: boolean;
  typography: number;
}

/**
 * With rendered fonts on both pages: drawn families 0.35, size ladder 0.25, weights 0.1, body text
 * 0.2, largest heading 0.1 — two pages that declare Lato but both draw a fallback look alike, and a
 * renamed typeface is the same face. Otherwise (a page without rendered fonts): declared families 0.4, size
 * ladder 0.3, body text 0.2, largest heading 0.1.
 */
export function typographySimilarity(a: Typography, b: Typography): TypographyScores {
  const rendered = !!a.rendered?.length && !!b.rendered?.length;
  const familiesA = rendered ? a.rendered! : a.families;
  const familiesB = rendered ? b.rendered! : b.families;
  const families =
    intersection(
      familiesA,
      familiesB,
      (f) => normaliseFamily(f.family),
      (f) => f.share,
    ) ?? 1;
  const weights =
    intersection(
      a.weights,
      b.weights,
      (w) => String(Math.round(w.weight / 100) * 100),
      (w) => w.share,
    ) ?? 1;
  // Sizes within ~2 px read as the same step of a type scale.
  const scale =
    intersection(
      a.sizeScale,
      b.sizeScale,
      (s) => String(Math.round(s.px / 2)),
      (s) => s.share,
    ) ?? 1;
  let body = 1;
  if (a.body && b.body) {
    body =
      0.5 * ratioSimilarity(a.body.sizePx, b.body.sizePx, 1) +
      0.3 * ratioSimilarity(a.body.lineHeightPx, b.body.lineHeightPx, 1) +
      0.2 * (1 - Math.min(1, Math.abs(a.body.weight - b.body.weight) / 400));
  } else if (a.body || b.body) {
    body = 0;
  }
  const top = (t: Typography) => t.headings.reduce((m, h) => Math.max(m, h.sizePx), 0);
  const headline = ratioSimilarity(top(a), top(b), 1);
  const typography = rendered
    ? 0.35 * families + 0.25 * scale + 0.1 * weights + 0.2 * body + 0.1 * headline
    : 0.4 * families + 0.3 * scale + 0.2 * body + 0.1 * headline;
  return { families, scale, body, headline, weights, rendered, typography };
}
