// Palette gatherer: the colours the DOM paints, each weighted by how much of the page it covers —
// text by the area of its line boxes, backgrounds by the area they actually show (minus what
// painted children cover), buttons by their size; and the chromatic colours by salience
// (page/salience.ts), from which the capture derives the palette roles.

import type { Extraction, PaletteEntry } from "../model";
import { hex, over, type Paint } from "../page/css-color";
import { gatherSalientColors } from "../page/salience";
import type { Scan } from "../page/scan";
import { tally, toShares } from "../page/shares";

export type PaletteMeasurement = Pick<Extraction["palette"], "text" | "background" | "buttons"> & { salient: PaletteEntry[] };

/** Smaller painted boxes (icons, bullets) say nothing about the palette. */
const MIN_AREA = 64;

export function gatherPalette(scan: Scan): PaletteMeasurement {
  const text = new Map<string, number>();
  for (const r of scan.runs()) tally(text, hex(r.fg), r.area);
  const buttons = new Map<string, number>();
  for (const c of scan.ctas()) tally(buttons, c.bg, c.fullBox.width * c.fullBox.height);
  return {
    text: toShares(text, 8),
    background: toShares(backgroundAreas(scan), 8),
    buttons: toShares(buttons, 6),
    salient: gatherSalientColors(scan),
  };
}

/** Each background colour with the area it shows: a box's area less its painted descendants'. */
function backgroundAreas(scan: Scan): Map<string, number> {
  const root = document.documentElement;
  const areaOf = (el: Element) => {
    const r = el.getBoundingClientRect();
    const top = Math.max(0, r.top + scan.scrollY);
    const bottom = Math.min(scan.maxY, r.bottom + scan.scrollY);
    return Math.max(0, r.width) * Math.max(0, bottom - top);
  };
  const filled: { el: Element; area: number; color: Paint }[] = [];
  const bodyPaintsCanvas = scan.color(scan.style(root).backgroundColor).alpha === 0;
  for (const el of scan.elements()) {
    if (el === document.body && bodyPaintsCanvas) continue; // already counted as the canvas
    const c = scan.color(scan.style(el).backgroundColor);
    if (c.alpha < 0.5) continue;
    const area = areaOf(el);
    if (area < MIN_AREA || !scan.rendered(el)) continue;
    filled.push({ el, area, color: over(c, scan.background(el.parentElement).color) });
  }
  const shown = new Map<Element, number>(filled.map((b) => [b.el, b.area]));
  let canvasArea = Math.max(scan.vw, root.scrollWidth) * Math.min(scan.maxY, root.scrollHeight);
  for (const b of filled) {
    let parent = b.el.parentElement;
    while (parent && !shown.has(parent)) parent = parent.parentElement;
    if (parent) shown.set(parent, (shown.get(parent) ?? 0) - b.area);
    else canvasArea -= b.area;
  }
  const areas = new Map<string, number>();
  tally(areas, hex(scan.canvas), Math.max(0, canvasArea));
  for (const b of filled) tally(areas, hex(b.color), Math.max(0, shown.get(b.el) ?? 0));
  return areas;
}
