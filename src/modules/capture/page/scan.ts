// One look at the page, shared by every gatherer: geometry in document coordinates, the visibility
// rule, computed colours and the background behind an element, plus the heavier collections (text
// runs, headings, calls to action) made once on first use. Gatherers read the DOM through it so
// two of them never disagree about what is visible or what colour something is.

import type { Box } from "../model";
import { isMasked } from "../consent/page-masks";
import { collectCtas, type Cta } from "./ctas";
import { CLEAR, createColorReader, over, WHITE, type Paint } from "./css-color";
import { listHeadings, renderedHeadings, type Heading } from "./headings";
import type { ScanArgs } from "./types";
import { collectRuns, findBodyRun, type Run } from "./text-runs";

export interface Background {
  color: Paint;
  /** False when an image or gradient sits between the element and the canvas. */
  known: boolean;
}

export interface Scan {
  readonly maxY: number;
  readonly vw: number;
  readonly vh: number;
  readonly scrollY: number;
  style(el: Element): CSSStyleDeclaration;
  color(css: string): Paint;
  box(el: Element): Box;
  /** The box cut at maxY, the bottom of the captured part. */
  clip(b: Box): Box;
  /** Laid out, visible, inside the page horizontally and above maxY; not in a masked consent banner. */
  rendered(el: Element): boolean;
  aboveFold(b: Box): boolean;
  /** The colour the root paints under everything. */
  readonly canvas: Paint;
  /** What shows behind an element: its own background over its ancestors', down to the canvas. */
  background(el: Element | null): Background;
  /** Up to 15 000 elements under body, body first. */
  elements(): Element[];
  runs(): Run[];
  bodyRun(): Run | null;
  headingElements(): Element[];
  headings(): Heading[];
  ctas(): Cta[];
  /** Visible form controls a user fills in (not buttons). */
  controls(): Element[];
}

export const CONTROL_SELECTOR =
  "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]),select,textarea";

const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
};

export function createScan(args: ScanArgs): Scan {
  const { maxY, viewportWidth: vw, viewportHeight: vh } = args;
  const scrollX = window.scrollX;
  const scrollY = window.scrollY;
  const color = createColorReader();
  const style = (el: Element) => getComputedStyle(el);

  const { canvas, background } = backgroundReader(style, color);
  const scan: Scan = {
    maxY,
    vw,
    vh,
    scrollY,
    style,
    color,
    box(el) {
      const r = el.getBoundingClientRect();
      return { x: Math.round(r.left + scrollX), y: Math.round(r.top + scrollY), width: Math.round(r.width), height: Math.round(r.height) };
    },
    clip: (b) => ({ ...b, height: Math.max(0, Math.min(b.height, maxY - b.y)) }),
    rendered(el) {
      // A consent banner left on screen is not the page (consent/page-banners.ts).
      if (isMasked(el)) return false;
      const anyEl = el as Element & { checkVisibility?: (o: object) => boolean };
      if (anyEl.checkVisibility && !anyEl.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return false;
      // Off-canvas drawers and skip links sit outside the page horizontally.
      if (r.right + scrollX <= 0 || r.left + scrollX >= Math.max(vw, document.documentElement.scrollWidth)) return false;
      return r.top + scrollY < maxY;
    },
    aboveFold: (b) => b.height > 0 && b.y + Math.min(b.height, vh) / 2 < vh,
    canvas,
    background,
    elements: once(() => {
      const all = Array.from((document.body ?? document.documentElement).querySelectorAll("*")).slice(0, 15000);
      if (document.body) all.unshift(document.body);
      return all;
    }),
    runs: once(() => collectRuns(scan)),
    bodyRun: once(() => findBodyRun(scan.runs())),
    headingElements: once(() => renderedHeadings(scan)),
    headings: once(() => listHeadings(scan)),
    ctas: once(() => collectCtas(scan)),
    controls: once(() => Array.from(document.querySelectorAll(CONTROL_SELECTOR)).filter(scan.rendered)),
  };
  return scan;
}

/**
 * The canvas colour (the root's background, or the body's when the root has none, over white) and
 * a memoised reader of what shows behind an element: its own background composited over its
 * ancestors', down to the canvas. An image or gradient on the way makes the result unknown.
 */
function backgroundReader(style: (el: Element) => CSSStyleDeclaration, color: (css: string) => Paint) {
  const html = color(style(document.documentElement).backgroundColor);
  const canvas = html.alpha > 0 ? over(html, WHITE) : over(document.body ? color(style(document.body).backgroundColor) : CLEAR, WHITE);
  const backgrounds = new Map<Element, Background>();
  const background = (el: Element | null): Background => {
    if (!el || el === document.documentElement) return { color: canvas, known: true };
    const cached = backgrounds.get(el);
    if (cached) return cached;
    const s = style(el);
    const own = color(s.backgroundColor);
    const hasImage = s.backgroundImage !== "none";
    let result: Background;
    if (own.alpha >= 0.999 && !hasImage) result = { color: own, known: true };
    else {
      const below = background(el.parentElement);
      result = { color: own.alpha > 0 ? over(own, below.color) : below.color, known: below.known && !hasImage };
    }
    backgrounds.set(el, result);
    return result;
  };
  return { canvas, background };
}
