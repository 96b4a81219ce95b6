import { useCallback, useRef } from "react";
import { proportionalOffset, ScrollLock } from "./scroll-sync";

/** Refs and scroll handlers for two panels that scroll as one. */
export function useScrollSync() {
  const left = useRef<HTMLDivElement | null>(null);
  const right = useRef<HTMLDivElement | null>(null);
  const lock = useRef<ScrollLock | null>(null);
  lock.current ??= new ScrollLock();

  const follow = useCallback((source: "left" | "right") => {
    const from = source === "left" ? left.current : right.current;
    const to = source === "left" ? right.current : left.current;
    if (!from || !to || !lock.current!.claim(source)) return;
    to.scrollTop = proportionalOffset(from, to);
    const fromMaxX = from.scrollWidth - from.clientWidth;
    const toMaxX = to.scrollWidth - to.clientWidth;
    if (fromMaxX > 0 && toMaxX > 0) to.scrollLeft = (from.scrollLeft / fromMaxX) * toMaxX;
  }, []);

  return {
    left,
    right,
    onLeftScroll: useCallback(() => follow("left"), [follow]),
    onRightScroll: useCallback(() => follow("right"), [follow]),
  };
}
