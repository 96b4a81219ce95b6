// Parts of a page that change by themselves: carousel slides (the hidden ones included), tickers,
// rotating words, live counters. A capture's volatility report names them (volatility-probe.ts); change
// detection treats a difference inside them as the page moving, not the page changing.

import { textKey } from "#server/lib/text";
import type { Box, Extraction } from "../model";

export interface Volatility {
  /** Every text those parts can show (slides' textContent, including slides hidden at capture time). */
  texts: string[];
  /** Where they are, in CSS px of the full page. */
  boxes: Box[];
  /** Colours ("#rrggbb") painted inside them (backgrounds, text, buttons of every slide). */
  colors: string[];
  /**
   * Opacity or colour animations were running while the page was measured: computed colours may
   * be caught mid-fade (a tint of the final colour over its background).
   */
  fading: boolean;
}

export const emptyVolatility = (): Volatility => ({ texts: [], boxes: [], colors: [], fading: false });

const MAX_TEXTS = 400;
const MAX_BOXES = 100;
const MAX_COLORS = 200;

/** Union of reports (before, after, and earlier captures of the same target). */
export function mergeVolatility(...reports: (Volatility | null | undefined)[]): Volatility {
  const texts = new Set<string>();
  const boxes: Box[] = [];
  const colors = new Set<string>();
  let fading = false;
  for (const r of reports) {
    if (!r) continue;
    fading ||= r.fading === true;
    for (const c of r.colors ?? []) if (/^#[0-9a-f]{6}$/i.test(c)) colors.add(c.toLowerCase());
    for (const t of r.texts) {
      const k = textKey(t);
      if (k) texts.add(k);
    }
    for (const b of r.boxes) if (!boxes.some((x) => contains(x, b, 0))) boxes.push(b);
  }
  return { texts: [...texts].slice(0, MAX_TEXTS), boxes: boxes.slice(0, MAX_BOXES), colors: [...colors].slice(0, MAX_COLORS), fading };
}

function contains(outer: Box, inner: Box, margin: number): boolean {
  return (
    inner.x >= outer.x - margin &&
    inner.y >= outer.y - margin &&
    inner.x + inner.width <= outer.x + outer.width + margin &&
    inner.y + inner.height <= outer.y + outer.height + margin
  );
}

/**
 * A capture's extraction with the volatility report of the same capture. It travels and is stored
 * inside the extraction (snapshots.extraction) so the run history has it for every later run.
 */
export type WithVolatility<T extends object = Extraction> = T & { volatility?: Volatility };

export function withVolatility<T extends object>(extraction: T, v: Volatility): WithVolatility<T> {
  return Object.assign(extraction, { volatility: v });
}

/** The report stored with a capture; null for a capture stored without one. */
export function volatilityOf(extraction: object | null | undefined): Volatility | null {
  const v = (extraction as { volatility?: unknown } | null | undefined)?.volatility;
  if (!v || typeof v !== "object") return null;
  const r = v as Partial<Volatility>;
  return Array.isArray(r.texts) && Array.isArray(r.boxes)
    ? { texts: r.texts, boxes: r.boxes, colors: Array.isArray(r.colors) ? r.colors : [], fading: r.fading === true }
    : null;
}
