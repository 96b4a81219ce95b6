/** Counts requests and 5xx answers; the error rate is read over a sliding five-minute window. */
export class RequestMetrics {
  total = 0;
  inFlight = 0;
  private readonly buckets = new Map<number, { n: number; errors: number }>();
  private current: { n: number; errors: number } | undefined;
  private currentKey = NaN;

  constructor(
    private readonly windowMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  started(): void {
    this.total++;
    this.inFlight++;
  }

  finished(status: number): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const key = Math.floor(this.now() / 10_000);
    // The current ten seconds' bucket is kept at hand: every answer counts into it.
    let b = this.current;
    if (b === undefined || this.currentKey !== key) {
      b = this.buckets.get(key);
      if (!b) this.buckets.set(key, (b = { n: 0, errors: 0 }));
      this.current = b;
      this.currentKey = key;
      if (this.buckets.size > this.windowMs / 10_000 + 2) this.prune();
    }
    b.n++;
    if (status >= 500) b.errors++;
  }

  /** Percentage of 5xx among requests answered in the window. */
  errorRate(): number {
    this.prune();
    let n = 0;
    let e = 0;
    for (const b of this.buckets.values()) {
      n += b.n;
      e += b.errors;
    }
    return n === 0 ? 0 : (e / n) * 100;
  }

  private prune() {
    const oldest = Math.floor((this.now() - this.windowMs) / 10_000);
    for (const k of this.buckets.keys()) if (k < oldest) this.buckets.delete(k);
  }
}
