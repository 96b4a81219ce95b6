// Colours by salience rather than painted area: a brand colour usually sits on small, important
// things (buttons, links, headings, icons, borders, badges) and would vanish in an area palette
// dominated by page white. Each element adds the square root of its area times how much attention
// its kind draws, so twenty small blue buttons outweigh one large grey band, and a hero-sized
// coloured block still counts without swamping everything else. Only chromatic colours are kept:
// greys, black and white are the page's background and text roles, read from the area palettes.

import type { PaletteEntry } from "../model";
import { hex, over, type Paint } from "./css-color";
import type { Scan } from "./scan";
import { tally, toShares } from "./shares";

/** Attention per kind of element, relative to a plain coloured box. */
const WEIGHT = { cta: 3, icon: 1.5, heading: 1.5, link: 1.2, border: 1, fill: 1 } as const;
/** Channel spread (0..1) below which a colour reads as grey; the roles audit applies the exact rule. */
const MIN_SPREAD = 0.08;
const ICON_SELECTOR = "svg,i[class],span[class*=icon],[class*=fa-],[class*=bi-]";

const chromatic = (c: Paint) => c.alpha > 0.3 && Math.max(c.r, c.g, c.b) - Math.min(c.r, c.g, c.b) >= MIN_SPREAD;

export function gatherSalientColors(scan: Scan): PaletteEntry[] {
  const weights = new Map<string, number>();
  const add = (c: Paint, behind: Paint, w: number) => {
    if (w > 0 && chromatic(c)) tally(weights, hex(over(c, behind)), w);
  };
  const size = (el: Element) => {
    const r = el.getBoundingClientRect();
    return Math.sqrt(Math.max(0, r.width) * Math.max(0, r.height));
  };

  for (const c of scan.ctas()) {
    const w = Math.sqrt(c.fullBox.width * c.fullBox.height) * WEIGHT.cta;
    const bg = scan.color(c.bg);
    // A filled button's fill is its colour; an outline button's is its label and rim.
    if (chromatic(bg)) add(bg, bg, w);
    else add(scan.color(c.fg), bg, w * 0.7);
  }

  for (const el of scan.elements()) {
    if (!scan.rendered(el)) continue;
    const s = scan.style(el);
    const behind = scan.background(el.parentElement).color;
    const own = scan.color(s.backgroundColor);
    if (own.alpha >= 0.5 && !(el.tagName === "A" || el.tagName === "BUTTON")) add(own, behind, size(el) * WEIGHT.fill);
    // Rims: a coloured top/bottom/left border of at least 2 px (underlines, cards, quote bars).
    for (const side of ["Top", "Bottom", "Left"] as const) {
      const width = parseFloat(s.getPropertyValue(`border-${side.toLowerCase()}-width`));
      if (!(width >= 2) || s.getPropertyValue(`border-${side.toLowerCase()}-style`) === "none") continue;
      const r = el.getBoundingClientRect();
      const length = side === "Left" ? r.height : r.width;
      add(scan.color(s.getPropertyValue(`border-${side.toLowerCase()}-color`)), behind, Math.sqrt(length * width) * WEIGHT.border);
    }
  }

  for (const el of scan.headingElements()) {
    add(scan.color(scan.style(el).color), scan.background(el).color, size(el) * WEIGHT.heading);
  }
  for (const el of document.querySelectorAll("a[href]")) {
    if (!scan.rendered(el) || !(el as HTMLElement).innerText?.trim()) continue;
    const cta = scan
      .ctas()
      .some((c) => c.href === (el as HTMLAnchorElement).href && c.text && (el as HTMLElement).innerText.includes(c.text));
    if (cta) continue; // already counted as a call to action
    add(scan.color(scan.style(el).color), scan.background(el).color, size(el) * WEIGHT.link);
  }
  for (const el of document.querySelectorAll(ICON_SELECTOR)) {
    if (!scan.rendered(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 160 || r.height > 160) continue; // an illustration, not an icon
    const s = scan.style(el);
    const behind = scan.background(el).color;
    const ink = el.tagName.toLowerCase() === "svg" ? iconInk(scan, el) : scan.color(s.color);
    add(ink, behind, size(el) * WEIGHT.icon);
  }
  return toShares(weights, 12);
}

/** An inline SVG's colour: its first filled or stroked shape's paint (currentColor resolves to `color`). */
function iconInk(scan: Scan, svg: Element): Paint {
  for (const shape of svg.querySelectorAll("path,circle,rect,polygon,ellipse,line,polyline")) {
    const s = scan.style(shape);
    for (const paint of [s.fill, s.stroke]) {
      const c = scan.color(paint);
      if (c.alpha > 0.3) return c;
    }
  }
  return scan.color(scan.style(svg).color);
}
