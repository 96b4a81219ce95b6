// Two screenshot panels scroll together (spec §2, §9). Setting one panel's scrollTop fires a
// scroll event on it too; the 50 ms lock keeps that echo from steering the first panel back.

export const SCROLL_LOCK_MS = 50;

export interface ScrollMetrics {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  scrollLeft?: number;
  scrollWidth?: number;
  clientWidth?: number;
}

/** The same relative position in a panel whose content may be taller or shorter. */
export function proportionalOffset(from: ScrollMetrics, to: Pick<ScrollMetrics, "scrollHeight" | "clientHeight">): number {
  const fromMax = from.scrollHeight - from.clientHeight;
  const toMax = to.scrollHeight - to.clientHeight;
  if (fromMax <= 0 || toMax <= 0) return 0;
  return (Math.min(Math.max(from.scrollTop, 0), fromMax) / fromMax) * toMax;
}

export class ScrollLock {
  private owner: string | null = null;
  private until = 0;

  constructor(
    private readonly lockMs = SCROLL_LOCK_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Whether a scroll on `panel` should drive the others. While another panel holds the lock the
   * event is the echo of our own write and is ignored; otherwise `panel` takes (or renews) the lock.
   */
  claim(panel: string): boolean {
    const t = this.now();
    if (this.owner !== null && this.owner !== panel && t < this.until) return false;
    this.owner = panel;
    this.until = t + this.lockMs;
    return true;
  }
}
