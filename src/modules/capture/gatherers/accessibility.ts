// Accessibility gatherer: the body text's contrast (a design measure the findings compare between
// sites) and the text runs whose contrast the screenshot's pixels decide. axe-core's audit runs
// after the look (page/axe-audit.ts) and tells which of these runs it could not decide itself.

import type { Box, Extraction } from "../model";
import { contrast, hex } from "../page/css-color";
import type { Scan } from "../page/scan";
import { clean } from "../page/strings";
import { textPaint } from "../page/text-paint";

/** What the DOM tells; the low-contrast runs and the audit's counts are added after the screenshot (phases/summarise.ts). */
export type AccessibilityMeasurement = Pick<Extraction["accessibility"], "bodyContrast">;

const round2 = (v: number) => Math.round(v * 100) / 100;

export function gatherAccessibility(scan: Scan): AccessibilityMeasurement {
  const body = scan.bodyRun();
  return { bodyContrast: body && body.bg.known ? round2(contrast(body.fg, body.bg.color)) : null };
}

/** A text run whose contrast the screenshot's pixels should decide: what CSS can't see, or what CSS flags. */
export interface ContrastProbe {
  text: string;
  /** The text colour over the CSS background (the element's own opacity applied). */
  fg: string;
  /** The text colour as declared, and the share of it that reaches the screen (its alpha times every opacity on the way up). Absent: `fg`, opaque. */
  ink?: string;
  alpha?: number;
  required: number;
  sizePx: number;
  /** The CSS verdict when the background is known from CSS; null when an image or gradient is in the way. */
  css: { bg: string; ratio: number } | null;
  /** The text's line boxes in document px (the first few, cut at maxY). */
  boxes: Box[];
}

const MAX_PROBES = 60;
const MAX_LINES = 3;

/** The elements of the last probes handed out, in their order: the audit names the ones axe left undecided by index. */
let probed: Element[] | null = null;
export const probedElements = (): Element[] | null => probed;

/**
 * The text runs the screenshot decides: runs over a background image or gradient (CSS can't say
 * what is behind them), and runs CSS finds below AA (a positioned photo or video behind the text is
 * invisible to the CSS background chain). Worst CSS failure first; on a page axe will audit
 * (`audited`), what CSS cannot judge first, since axe decides most CSS failures itself and only
 * what it could not decide keeps the pixels' verdict.
 */
export function contrastProbes(scan: Scan, { audited = false }: { audited?: boolean } = {}): ContrastProbe[] {
  const range = document.createRange();
  const probes: (ContrastProbe & { order: number; el: Element })[] = [];
  const seen = new Set<string>();
  for (const r of scan.runs()) {
    if (r.chars < 2) continue;
    const large = r.sizePx >= 24 || (r.sizePx >= 18.66 && r.weight >= 700);
    const required = large ? 3 : 4.5;
    const ratio = r.bg.known ? contrast(r.fg, r.bg.color) : null;
    if (ratio !== null && ratio + 1e-9 >= required) continue;
    const text = clean(r.text, 80);
    const fg = hex(r.fg);
    if (seen.has(`${text}|${fg}`)) continue;
    seen.add(`${text}|${fg}`);
    const boxes: Box[] = [];
    for (const node of Array.from(r.el.childNodes)) {
      if (node.nodeType !== Node.TEXT_NODE || !node.nodeValue?.trim()) continue;
      range.selectNodeContents(node);
      for (const rect of Array.from(range.getClientRects())) {
        const y = Math.round(rect.top + scan.scrollY);
        const box = scan.clip({
          x: Math.round(rect.left + window.scrollX),
          y,
          width: Math.round(rect.width),
          height: Math.round(rect.height),
        });
        if (box.width >= 2 && box.height >= 2 && boxes.length < MAX_LINES) boxes.push(box);
      }
    }
    if (boxes.length === 0) continue;
    probes.push({
      text,
      fg,
      ...textPaint(scan, r.el),
      required,
      sizePx: r.sizePx,
      css: ratio === null ? null : { bg: hex(r.bg.color), ratio: round2(ratio) },
      boxes,
      el: r.el,
      order: audited ? (ratio === null ? 0 : 1 + ratio) : (ratio ?? required),
    });
  }
  // In order, top of the page first among equals (the sort is stable).
  const kept = probes.sort((a, b) => a.order - b.order).slice(0, MAX_PROBES);
  probed = kept.map((p) => p.el);
  return kept.map(({ order: _, el: __, ...p }) => p);
}
