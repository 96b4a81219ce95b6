// The paint a run of text is drawn with before it meets what is behind it: the colour as declared
// and how much of it reaches the screen. Translucency multiplies down the tree: the colour's own
// alpha, the element's opacity and every ancestor's (an opacity group fades all it holds), so a
// white link at 60 % inside a header at 80 % paints 48 % white over whatever lies behind it.

import { hex } from "./css-color";
import type { Scan } from "./scan";

export interface TextPaint {
  /** The text colour as declared, opaque. */
  ink: string;
  /** The share of `ink` that reaches the screen, 0..1. */
  alpha: number;
}

export function textPaint(scan: Scan, el: Element): TextPaint {
  const colour = scan.color(scan.style(el).color);
  let alpha = colour.alpha;
  for (let a: Element | null = el; a && alpha > 0; a = a.parentElement) {
    const opacity = parseFloat(scan.style(a).opacity);
    if (Number.isFinite(opacity)) alpha *= opacity;
  }
  return { ink: hex({ ...colour, alpha: 1 }), alpha: Math.round(alpha * 1000) / 1000 };
}
