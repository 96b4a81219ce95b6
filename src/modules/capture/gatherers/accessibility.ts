// Accessibility gatherer: quick checks a visitor would hit — text below WCAG AA contrast against a
// background we can know from CSS, the body text's contrast, images without a text alternative and
// form controls without a label.

import type { Box, Extraction } from "../model";
import { contrast, hex } from "../page/css-color";
import type { Scan } from "../page/scan";
import { clean } from "../page/strings";
import { textPaint } from "../page/text-paint";

export type AccessibilityMeasurement = Extraction["accessibility"];
type LowContrast = AccessibilityMeasurement["lowContrast"][number];

const round2 = (v: number) => Math.round(v * 100) / 100;

export function gatherAccessibility(scan: Scan): AccessibilityMeasurement {
  const body = scan.bodyRun();
  return {
    lowContrast: lowContrast(scan),
    bodyContrast: body && body.bg.known ? round2(contrast(body.fg, body.bg.color)) : null,
    imagesWithoutAlt: imagesWithoutAlt(scan),
    inputsWithoutLabel: inputsWithoutLabel(scan),
  };
}

/** Runs below AA (3:1 for large text, 4.5:1 otherwise), worst first, one per text and colour pair. */
function lowContrast(scan: Scan): LowContrast[] {
  const found: LowContrast[] = [];
  for (const r of scan.runs()) {
    if (!r.bg.known || r.chars < 2) continue;
    const ratio = contrast(r.fg, r.bg.color);
    const large = r.sizePx >= 24 || (r.sizePx >= 18.66 && r.weight >= 700);
    const required = large ? 3 : 4.5;
    if (ratio + 1e-9 < required)
      found.push({ text: clean(r.text, 80), ratio: round2(ratio), required, fg: hex(r.fg), bg: hex(r.bg.color), method: "css" });
  }
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.ratio - b.ratio)
    .filter((c) => {
      const key = `${c.text}|${c.fg}|${c.bg}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, 40);
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
 * Runs over a background image or gradient (CSS can't say what is behind them), and runs CSS finds
 * below AA (a positioned photo or video behind the text is invisible to the CSS background chain).
 */
export function contrastProbes(scan: Scan): ContrastProbe[] {
  const range = document.createRange();
  const probes: (ContrastProbe & { order: number })[] = [];
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
      order: ratio ?? required,
    });
  }
  // CSS failures first (worst first), then what CSS could not judge, top of the page first.
  return probes
    .sort((a, b) => a.order - b.order)
    .slice(0, MAX_PROBES)
    .map(({ order: _, ...p }) => p);
}

const hasText = (value: string | null) => !!(value ?? "").trim();

/** Visible images with no alt and no other name, that are not marked decorative. */
function imagesWithoutAlt(scan: Scan): number {
  return Array.from(document.querySelectorAll("img")).filter((img) => {
    if (img.hasAttribute("alt")) return false;
    if (img.getAttribute("aria-hidden") === "true" || ["presentation", "none"].includes(img.getAttribute("role") ?? "")) return false;
    if (hasText(img.getAttribute("aria-label")) || hasText(img.getAttribute("aria-labelledby")) || hasText(img.getAttribute("title")))
      return false;
    return scan.rendered(img);
  }).length;
}

/** Visible controls with no accessible name. A placeholder is not a label: it disappears on input and is not announced reliably. */
function inputsWithoutLabel(scan: Scan): number {
  const labelledBy = (ids: string) =>
    ids
      .split(/\s+/)
      .map((id) => (id ? (document.getElementById(id)?.textContent ?? "") : ""))
      .join(" ")
      .trim();
  return scan.controls().filter((el) => {
    const c = el as HTMLInputElement;
    if (hasText(c.getAttribute("aria-label"))) return false;
    if (labelledBy(c.getAttribute("aria-labelledby") ?? "")) return false;
    if (hasText(c.getAttribute("title"))) return false;
    if (Array.from(c.labels ?? []).some((l) => hasText(l.textContent))) return false;
    return true;
  }).length;
}
