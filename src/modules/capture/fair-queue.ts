// A bounded queue that is fair between owners: each owner has its own FIFO and owners take turns,
// so one user's 40-page run can't starve another user's 2 pages.

export type PushResult = "queued" | "full" | "owner-full";

export class FairQueue<T> {
  private readonly queues = new Map<string, T[]>();
  /** Owners with waiting items, in the order they will next be served. */
  private readonly turn: string[] = [];
  private count = 0;

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerOwner: number,
  ) {}

  get size(): number {
    return this.count;
  }

  sizeOf(owner: string): number {
    return this.queues.get(owner)?.length ?? 0;
  }

  push(owner: string, item: T): PushResult {
    if (this.count >= this.maxTotal) return "full";
    const queue = this.queues.get(owner);
    if ((queue?.length ?? 0) >= this.maxPerOwner) return "owner-full";
    if (queue) queue.push(item);
    else {
      this.queues.set(owner, [item]);
      this.turn.push(owner);
    }
    this.count++;
    return "queued";
  }

  /** Round-robin: the owner at the front gives one item and goes to the back if it has more. */
  shift(): { owner: string; item: T } | null {
    const owner = this.turn.shift();
    if (owner === undefined) return null;
    const queue = this.queues.get(owner)!;
    const item = queue.shift()!;
    if (queue.length) this.turn.push(owner);
    else this.queues.delete(owner);
    this.count--;
    return { owner, item };
  }

  /** Empties the queue, returning everything that was waiting. */
  drain(): T[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.turn.length = 0;
    this.count = 0;
    return all;
  }

  owners(): Map<string, number> {
    return new Map([...this.queues].map(([owner, items]) => [owner, items.length]));
  }
}
