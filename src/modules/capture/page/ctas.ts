// Calls to action: buttons, and links styled as buttons (a fill that stands out from what is behind
// it, or a border with padding). Icon-only controls (menu toggles, carousel arrows) are not calls
// to action. The elements gatherer lists them; the palette weighs their colours; the layout reads
// their corner radius.

import type { Box, Extraction } from "../model";
import { hex, over, WHITE } from "./css-color";
import type { Scan } from "./scan";
import { clean } from "./strings";

export type Cta = Extraction["elements"]["ctas"][number] & {
  /** The unclipped box: the palette weighs a button's colour by its whole area. */
  fullBox: Box;
  radiusPx: number;
};

const CANDIDATES = "a[href],button,[role=button],input[type=submit],input[type=button]";
const MAX_CTAS = 60;

function isButtonLike(scan: Scan, el: Element, s: CSSStyleDeclaration): boolean {
  const tag = el.tagName;
  if (tag === "BUTTON" || el.getAttribute("role") === "button") return true;
  if (tag === "INPUT") return ["submit", "button"].includes((el as HTMLInputElement).type);
  if (tag !== "A") return false;
  const bg = scan.color(s.backgroundColor);
  const hasFill = bg.alpha > 0.3 && hex(over(bg, WHITE)) !== hex(scan.background(el.parentElement).color);
  const hasBorder = parseFloat(s.borderTopWidth) >= 1 && scan.color(s.borderTopColor).alpha > 0.3 && parseFloat(s.paddingLeft) >= 8;
  const r = el.getBoundingClientRect();
  return (hasFill || hasBorder) && r.height >= 24 && r.height <= 120 && r.width <= 600;
}

const labelOf = (el: Element) => clean(el.tagName === "INPUT" ? (el as HTMLInputElement).value : (el as HTMLElement).innerText || "", 80);

export function collectCtas(scan: Scan): Cta[] {
  const buttons = Array.from(document.querySelectorAll(CANDIDATES))
    .filter((el) => scan.rendered(el) && isButtonLike(scan, el, scan.style(el)))
    // A button inside a button-like link is one control.
    .filter((el, _, list) => !list.some((other) => other !== el && other.contains(el)));
  return buttons
    .filter((el) => /[\p{L}\p{N}]/u.test(labelOf(el)))
    .slice(0, MAX_CTAS)
    .map((el) => {
      const s = scan.style(el);
      const box = scan.box(el);
      const bg = scan.background(el).color;
      return {
        text: labelOf(el),
        box: scan.clip(box),
        aboveFold: scan.aboveFold(box),
        href: el.tagName === "A" ? (el as HTMLAnchorElement).href : null,
        bg: hex(bg),
        fg: hex(over(scan.color(s.color), bg)),
        fullBox: box,
        radiusPx: parseFloat(s.borderTopLeftRadius) || 0,
      };
    });
}
