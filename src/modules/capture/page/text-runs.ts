// Text runs: one per element that holds visible text of its own, with the style it is drawn in and
// the colours it is drawn with. Typography, the text palette, contrast, copy and spacing all read them.

import { isMasked } from "../consent/page-masks";
import { over, withAlpha, type Paint } from "./css-color";
import type { Background, Scan } from "./scan";
import { firstFamily, tenth } from "./strings";

export interface Run {
  el: Element;
  text: string;
  chars: number;
  /** Painted area of the text's line boxes above maxY, px². */
  area: number;
  /** Document y of the highest line box. */
  top: number;
  family: string;
  sizePx: number;
  weight: number;
  lineHeightPx: number;
  /** Text colour composited over its background (opacity included). */
  fg: Paint;
  bg: Background;
}

const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TEXTAREA", "OPTION", "SVG"]);
/** Text nodes looked at, at most: enough for any real page, bounded for a generated one. */
const MAX_TEXT_NODES = 20000;

/** The area and top of a text node's line boxes that lie above maxY. */
function lineBoxes(range: Range, scan: Scan): { area: number; top: number } {
  let area = 0;
  let top = Infinity;
  for (const r of Array.from(range.getClientRects())) {
    if (r.width < 1 || r.height < 1) continue;
    const docTop = r.top + scan.scrollY;
    if (docTop >= scan.maxY) continue;
    area += r.width * r.height;
    top = Math.min(top, docTop);
  }
  return { area, top };
}

function newRun(scan: Scan, el: Element, text: string, range: Range, area: number, top: number): Run | null {
  const s = scan.style(el);
  if (s.visibility === "hidden" || parseFloat(s.opacity) === 0) return null;
  const sizePx = parseFloat(s.fontSize) || 16;
  let lineHeightPx = parseFloat(s.lineHeight);
  if (!Number.isFinite(lineHeightPx)) {
    // "normal": measure the rendered line box.
    const lines = Array.from(range.getClientRects()).filter((r) => r.height > 0);
    lineHeightPx = lines.length ? lines.reduce((a, r) => a + r.height, 0) / lines.length : sizePx * 1.2;
  }
  const color = scan.color(s.color);
  const bg = scan.background(el);
  return {
    el,
    text,
    chars: text.trim().length,
    area,
    top,
    family: firstFamily(s.fontFamily) || "serif",
    sizePx: tenth(sizePx),
    weight: parseInt(s.fontWeight, 10) || 400,
    lineHeightPx: tenth(lineHeightPx),
    fg: over(withAlpha(color, color.alpha * (parseFloat(s.opacity) || 1)), bg.color),
    bg,
  };
}

/** Every run above maxY, top to bottom. */
export function collectRuns(scan: Scan): Run[] {
  const runs: Run[] = [];
  const runByElement = new Map<Element, Run>();
  const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let node: Node | null;
  let visited = 0;
  while ((node = walker.nextNode()) && visited < MAX_TEXT_NODES) {
    visited++;
    const text = node.nodeValue ?? "";
    if (!text.trim()) continue;
    const el = node.parentElement;
    if (!el || SKIP.has(el.tagName.toUpperCase()) || isMasked(el)) continue;
    range.selectNodeContents(node);
    const { area, top } = lineBoxes(range, scan);
    if (area <= 0) continue;
    const existing = runByElement.get(el);
    if (existing) {
      existing.text += " " + text;
      existing.chars += text.trim().length;
      existing.area += area;
      existing.top = Math.min(existing.top, top);
      continue;
    }
    const run = newRun(scan, el, text, range, area, top);
    if (!run) continue;
    runs.push(run);
    runByElement.set(el, run);
  }
  return runs.sort((a, b) => a.top - b.top);
}

/** Body text style: the most-used style among paragraph-like text (not headings, buttons, links or labels). */
export function findBodyRun(runs: Run[]): Run | null {
  const inHeading = (el: Element) => !!el.closest("h1,h2,h3,h4,h5,h6,[role=heading],button,a,nav,label,[role=button]");
  const styles = new Map<string, { chars: number; run: Run }>();
  for (const r of runs) {
    if (inHeading(r.el) || r.sizePx < 11 || r.sizePx > 26) continue;
    const key = `${r.family}|${r.sizePx}|${r.weight}|${r.lineHeightPx}`;
    const entry = styles.get(key);
    if (entry) entry.chars += r.chars;
    else styles.set(key, { chars: r.chars, run: r });
  }
  return [...styles.values()].sort((a, b) => b.chars - a.chars)[0]?.run ?? null;
}
