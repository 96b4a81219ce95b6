// Headings as a reader meets them: rendered h1-h6 and ARIA headings, in document order.

import type { Extraction } from "../model";
import type { Scan } from "./scan";
import { clean } from "./strings";

export type Heading = Extraction["elements"]["headings"][number];

export function renderedHeadings(scan: Scan): Element[] {
  return Array.from(document.querySelectorAll("h1,h2,h3,h4,h5,h6,[role=heading][aria-level]")).filter(scan.rendered);
}

export function levelOf(el: Element): number {
  return /^H[1-6]$/.test(el.tagName) ? Number(el.tagName[1]) : Math.min(6, Math.max(1, Number(el.getAttribute("aria-level")) || 2));
}

/** The first 80 headings that have text. */
export function listHeadings(scan: Scan): Heading[] {
  return scan
    .headingElements()
    .slice(0, 80)
    .map((el) => {
      const box = scan.box(el);
      return {
        level: levelOf(el),
        text: clean((el as HTMLElement).innerText || el.textContent || "", 200),
        box: scan.clip(box),
        aboveFold: scan.aboveFold(box),
      };
    })
    .filter((h) => h.text);
}
