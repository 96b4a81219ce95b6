// Layout gatherer: the regions of the page, how many columns its content blocks use, and two design
// tokens — the corner radius of buttons and cards, and the vertical spacing between blocks.

import type { Extraction } from "../model";
import { hex } from "../page/css-color";
import type { Scan } from "../page/scan";
import { median, tally } from "../page/shares";
import { findRegions } from "./layout-regions";

export type LayoutMeasurement = Extraction["layout"];

export function gatherLayout(scan: Scan): LayoutMeasurement {
  const { regions, header, hero, footer, sections } = findRegions(scan);
  const contentBlocks = [...(hero ? [hero] : []), ...sections];
  const blocks = [header, hero, ...sections, footer].filter((x): x is Element => !!x);
  return {
    regions,
    columns: commonColumns(scan, contentBlocks),
    radiusPx: Math.round(median([...scan.ctas().map((c) => c.radiusPx), ...cardRadii(scan)])),
    spacingPx: Math.round(median(blockGaps(scan, blocks))),
  };
}

/** The most common column count among content blocks (ties: the larger), 1 without any. */
function commonColumns(scan: Scan, blocks: Element[]): number {
  const counts = new Map<number, number>();
  for (const block of blocks) tally(counts, columnsOf(scan, block), 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 1;
}

/** The most boxes laid side by side in one row anywhere within 4 levels of `root`, at most 6. */
function columnsOf(scan: Scan, root: Element): number {
  let best = 1;
  const queue: { el: Element; depth: number }[] = [{ el: root, depth: 0 }];
  const rootWidth = root.getBoundingClientRect().width;
  while (queue.length) {
    const { el, depth } = queue.shift()!;
    const kids = Array.from(el.children).filter((k) => {
      const r = k.getBoundingClientRect();
      return r.width >= Math.max(80, rootWidth * 0.12) && r.height >= 40 && scan.rendered(k);
    });
    const rows = new Map<number, DOMRect[]>();
    for (const k of kids) {
      const r = k.getBoundingClientRect();
      const key = Math.round(r.top / 12);
      rows.set(key, [...(rows.get(key) ?? []), r]);
    }
    for (const row of rows.values()) {
      const sorted = row.sort((a, b) => a.left - b.left);
      const disjoint = sorted.every((r, i) => i === 0 || r.left >= sorted[i - 1]!.right - 2);
      if (disjoint) best = Math.max(best, row.length);
    }
    if (depth < 4) for (const k of Array.from(el.children)) queue.push({ el: k, depth: depth + 1 });
  }
  return Math.min(best, 6);
}

/** Corner radii of cards: card-sized boxes that are filled apart from their parent, bordered or shadowed. */
function cardRadii(scan: Scan): number[] {
  const radii: number[] = [];
  for (const el of scan.elements().slice(0, 8000)) {
    const r = el.getBoundingClientRect();
    if (r.width < 120 || r.width > scan.vw * 0.7 || r.height < 80 || r.height > 900) continue;
    const s = scan.style(el);
    const filled =
      scan.color(s.backgroundColor).alpha > 0.5 && hex(scan.background(el).color) !== hex(scan.background(el.parentElement).color);
    const bordered = parseFloat(s.borderTopWidth) >= 1 && scan.color(s.borderTopColor).alpha > 0.2;
    if ((filled || bordered || s.boxShadow !== "none") && scan.rendered(el)) radii.push(parseFloat(s.borderTopLeftRadius) || 0);
  }
  return radii;
}

/** Whitespace between the last content of one block and the first content of the next. */
function blockGaps(scan: Scan, blocks: Element[]): number[] {
  const ordered = [...blocks].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
  const gaps: number[] = [];
  let previous: { top: number; bottom: number } | null = null;
  for (const block of ordered) {
    const b = contentBounds(scan, block);
    if (!b) continue;
    // A gap taller than the screen is a layout quirk (an empty block), not a spacing choice.
    if (previous && b.top > previous.bottom && b.top - previous.bottom < scan.vh) gaps.push(b.top - previous.bottom);
    previous = b;
  }
  return gaps;
}

/** Document top and bottom of a block's text and media. */
function contentBounds(scan: Scan, block: Element): { top: number; bottom: number } | null {
  let top = Infinity;
  let bottom = -Infinity;
  const include = (el: Element) => {
    const rect = el.getBoundingClientRect();
    top = Math.min(top, rect.top + scan.scrollY);
    bottom = Math.max(bottom, rect.bottom + scan.scrollY);
  };
  for (const r of scan.runs()) if (block.contains(r.el)) include(r.el);
  for (const el of Array.from(block.querySelectorAll("img,svg,button,input,video,canvas"))) if (scan.rendered(el)) include(el);
  return top === Infinity ? null : { top, bottom };
}
