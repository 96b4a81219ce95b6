// Whether a difference between two captures lies in a part of the page that moves by itself (the
// capture's volatility report, capture/watchers/volatility.ts): then it is not reported as a change.
import type { Box } from "#server/modules/capture/model";
import type { Volatility } from "#server/modules/capture/public";
import { textKey } from "./text";

/** A box whose centre lies inside a volatile part (small margin for sub-pixel layout). */
export function inVolatileBox(box: Box | undefined, v: Volatility): boolean {
  if (!box) return false;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return v.boxes.some((b) => cx >= b.x - 4 && cx <= b.x + b.width + 4 && cy >= b.y - 4 && cy <= b.y + b.height + 4);
}

/** Text that is (part of) what a volatile part can show. */
export function isVolatileText(text: string, v: Volatility): boolean {
  const k = textKey(text);
  if (!k) return false;
  return v.texts.some((t) => t === k || (k.length >= 3 && t.includes(k)));
}
