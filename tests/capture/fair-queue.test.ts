import { describe, expect, test } from "bun:test";
import { FairQueue } from "#server/modules/capture/browser/fair-queue";

const drainOrder = (q: FairQueue<string>) => {
  const out: string[] = [];
  for (let next = q.shift(); next; next = q.shift()) out.push(next.item);
  return out;
};

describe("FairQueue", () => {
  test("alternates between owners, FIFO within each", () => {
    const q = new FairQueue<string>(100, 100);
    for (const item of ["a1", "a2", "a3", "a4"]) q.push("a", item);
    for (const item of ["b1", "b2"]) q.push("b", item);
    q.push("c", "c1");
    expect(drainOrder(q)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", "a4"]);
    expect(q.size).toBe(0);
  });

  test("an owner who arrives late goes before the owner just served", () => {
    const q = new FairQueue<string>(100, 100);
    q.push("a", "a1");
    expect(q.shift()?.item).toBe("a1"); // a1 starts; a's queue is empty now
    q.push("a", "a2");
    q.push("a", "a3");
    q.push("b", "b1");
    expect(drainOrder(q)).toEqual(["b1", "a2", "a3"]);
  });

  test("leaving and rejoining doesn't reset an owner's place", () => {
    const q = new FairQueue<string>(100, 100);
    q.push("a", "a1");
    q.push("b", "b1");
    expect(q.shift()?.item).toBe("a1");
    q.push("a", "a2"); // a rejoins, but was served more recently than b
    expect(drainOrder(q)).toEqual(["b1", "a2"]);
  });

  test("bounds the total and the per-owner length", () => {
    const q = new FairQueue<string>(3, 2);
    expect(q.push("a", "a1")).toBe("queued");
    expect(q.push("a", "a2")).toBe("queued");
    expect(q.push("a", "a3")).toBe("owner-full");
    expect(q.push("b", "b1")).toBe("queued");
    expect(q.push("c", "c1")).toBe("full");
    expect(q.size).toBe(3);
    expect([...q.owners()]).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
    expect(q.drain().sort()).toEqual(["a1", "a2", "b1"]);
    expect(q.size).toBe(0);
    expect(q.shift()).toBeNull();
  });
});
