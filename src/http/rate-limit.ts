import { tooMany } from "./errors";

interface Window {
  count: number;
  resetAt: number;
}

/**
 * A fixed-window budget: in memory for one process (RateLimiter), or in the database for every
 * instance of a deployment (src/modules/rate-limits). Callers await each answer, whichever it is.
 */
export interface Budget {
  /** Throws 429 with Retry-After when `key` is over its budget. */
  hit(key: string): void | Promise<void>;
  exhausted(key: string): boolean | Promise<boolean>;
  refund(key: string): void | Promise<void>;
  reset(key: string): void | Promise<void>;
}

/** Makes the budget called `name`: `limit` uses per `windowMs`. */
export type BudgetFactory = (name: string, limit: number, windowMs: number) => Budget;

/** Fixed-window counters in memory: enough for one process, and forgotten on restart by design. */
export class RateLimiter implements Budget {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 with Retry-After when `key` is over its budget. */
  hit(key: string): void {
    const t = this.now();
    const w = this.spend(key, t);
    if (w.count > this.limit) throw tooMany(Math.max(1, Math.ceil((w.resetAt - t) / 1000)));
  }

  /** True once `key` has used its whole budget in the current window. */
  exhausted(key: string): boolean {
    const w = this.windows.get(key);
    return Boolean(w && w.resetAt > this.now() && w.count >= this.limit);
  }

  /** Gives back one unit `hit` took: for budgets that count only failures but must be spent before the outcome is known. */
  refund(key: string): void {
    const w = this.windows.get(key);
    if (w && w.resetAt > this.now() && w.count > 0) w.count--;
  }

  private spend(key: string, t: number): Window {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + this.windowMs };
      this.windows.set(key, w);
      if (this.windows.size > 50_000) this.sweep(t);
    }
    w.count++;
    return w;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(t: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= t) this.windows.delete(k);
  }
}
