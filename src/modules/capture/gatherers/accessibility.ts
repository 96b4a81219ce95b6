// Accessibility gatherer: axe-core's audit of the page (run just before, page/axe-audit.ts) with the
// counts budgets read derived from it, the body text's contrast (a design measure the findings
// compare between sites), and the text runs whose contrast the screenshot's pixels decide.

import { failing, IMAGE_ALT_RULES, LABEL_RULES } from "./axe-results";
import type { Box, Extraction } from "../model";
import { lastAudit, undecidedContrast } from "../page/axe-audit";
import { contrast, hex } from "../page/css-color";
import type { Scan } from "../page/scan";
import { clean } from "../page/strings";
import { textPaint } from "../page/text-paint";

export type AccessibilityMeasurement = Extraction["accessibility"];

const round2 = (v: number) => Math.round(v * 100) / 100;

export function gatherAccessibility(scan: Scan): AccessibilityMeasurement {
  const body = scan.bodyRun();
  const audit = lastAudit();
  return {
    // Decided after the screenshot, from contrastProbes (phases/summarise.ts).
    lowContrast: [],
    bodyContrast: body && body.bg.known ? round2(contrast(body.fg, body.bg.color)) : null,
    imagesWithoutAlt: failing(audit, IMAGE_ALT_RULES),
    inputsWithoutLabel: failing(audit, LABEL_RULES),
    audit,
  };
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

/**
 * The text runs the screenshot decides. After axe ran: the ones whose contrast axe could not decide
 * (it marks text over an image, a gradient or another element "incomplete"). Without axe: runs over
 * a background image or gradient (CSS can't say what is behind them), and runs CSS finds below AA
 * (a positioned photo or video behind the text is invisible to the CSS background chain).
 */
export function contrastProbes(scan: Scan): ContrastProbe[] {
  const range = document.createRange();
  const probes: (ContrastProbe & { order: number })[] = [];
  const seen = new Set<string>();
  const undecided = undecidedContrast();
  for (const r of scan.runs()) {
    if (r.chars < 2) continue;
    const large = r.sizePx >= 24 || (r.sizePx >= 18.66 && r.weight >= 700);
    const required = large ? 3 : 4.5;
    const ratio = r.bg.known ? contrast(r.fg, r.bg.color) : null;
    if (undecided) {
      // axe judged every other element (its violations are its own findings); what it could not
      // decide is left to the pixels, whatever CSS says: a positioned photo can sit behind a CSS colour.
      if (!undecided.has(r.el)) continue;
    } else if (ratio !== null && ratio + 1e-9 >= required) continue;
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
      order: ratio ?? required,
    });
  }
  // CSS failures first (worst first), then what CSS could not judge, top of the page first.
  return probes
    .sort((a, b) => a.order - b.order)
    .slice(0, MAX_PROBES)
    .map(({ order: _, ...p }) => p);
}
