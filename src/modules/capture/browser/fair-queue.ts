// A bounded queue that is fair between owners: each owner has its own FIFO, and the next item
// always comes from the waiting owner served longest ago (never-served owners first). So one
// user's 40-page run can't starve another user's 2 pages, even when the first run started earlier.

export type PushResult = "queued" | "full" | "owner-full";

/** Owners remembered after their queue empties, so leaving and rejoining doesn't jump the line. */
const SERVED_MEMORY = 10_000;

export class FairQueue<T> {
  private readonly queues = new Map<string, { items: T[]; arrival: number }>();
  /** When each owner was last served, on a counter that ticks once per item handed out. */
  private readonly lastServed = new Map<string, number>();
  private tick = 0;
  private arrivals = 0;
  private count = 0;

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerOwner: number,
  ) {}

  get size(): number {
    return this.count;
  }

  sizeOf(owner: string): number {
    return this.queues.get(owner)?.items.length ?? 0;
  }

  push(owner: string, item: T): PushResult {
    if (this.count >= this.maxTotal) return "full";
    const queue = this.queues.get(owner);
    if ((queue?.items.length ?? 0) >= this.maxPerOwner) return "owner-full";
    if (queue) queue.items.push(item);
    else this.queues.set(owner, { items: [item], arrival: this.arrivals++ });
    this.count++;
    return "queued";
  }

  /**
   * Puts an item back at the head of its owner's line, past the caps: it was let in once already
   * (a page whose remote browser went away under it).
   */
  unshift(owner: string, item: T): void {
    const queue = this.queues.get(owner);
    if (queue) queue.items.unshift(item);
    else this.queues.set(owner, { items: [item], arrival: this.arrivals++ });
    this.count++;
  }

  shift(): { owner: string; item: T } | null {
    let best: string | null = null;
    let bestKey: [number, number] = [Infinity, Infinity];
    for (const [owner, queue] of this.queues) {
      const key: [number, number] = [this.lastServed.get(owner) ?? -1, queue.arrival];
      if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
        best = owner;
        bestKey = key;
      }
    }
    if (best === null) return null;
    const queue = this.queues.get(best)!;
    const item = queue.items.shift()!;
    if (!queue.items.length) this.queues.delete(best);
    this.count--;
    this.lastServed.delete(best); // re-insert so the Map's order is oldest-served first
    this.lastServed.set(best, this.tick++);
    if (this.lastServed.size > SERVED_MEMORY) {
      for (const owner of this.lastServed.keys()) {
        if (this.lastServed.size <= SERVED_MEMORY) break;
        if (!this.queues.has(owner)) this.lastServed.delete(owner);
      }
    }
    return { owner: best, item };
  }

  /** Empties the queue, returning everything that was waiting. */
  drain(): T[] {
    const all = [...this.queues.values()].flatMap((q) => q.items);
    this.queues.clear();
    this.count = 0;
    return all;
  }

  owners(): Map<string, number> {
    return new Map([...this.queues].map(([owner, q]) => [owner, q.items.length]));
  }
}
