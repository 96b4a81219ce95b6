import { expect, test } from "bun:test";
import { proportionalOffset, SCROLL_LOCK_MS, ScrollLock } from "./scroll-sync";

test("the lock is 50 ms (spec §9)", () => expect(SCROLL_LOCK_MS).toBe(50));

test("the echo of our own write is ignored while the lock holds", () => {
  let now = 1000;
  const lock = new ScrollLock(50, () => now);
  expect(lock.claim("left")).toBe(true); // user scrolls left; we write to right
  now += 16;
  expect(lock.claim("right")).toBe(false); // right's scroll event is our echo
  now += 10;
  expect(lock.claim("left")).toBe(true); // the user keeps scrolling left, renewing the lock
  now += 49;
  expect(lock.claim("right")).toBe(false);
  now += 1; // 50 ms after the last left scroll
  expect(lock.claim("right")).toBe(true); // now the user drives the right panel
  now += 5;
  expect(lock.claim("left")).toBe(false);
});

test("scroll position carries over proportionally", () => {
  const from = { scrollTop: 500, scrollHeight: 1600, clientHeight: 600 }; // halfway
  expect(proportionalOffset(from, { scrollHeight: 3600, clientHeight: 600 })).toBe(1500);
  expect(proportionalOffset({ ...from, scrollTop: 1000 }, { scrollHeight: 1100, clientHeight: 600 })).toBe(500);
  // A panel that cannot scroll stays at the top, and drives nothing.
  expect(proportionalOffset(from, { scrollHeight: 600, clientHeight: 600 })).toBe(0);
  expect(proportionalOffset({ scrollTop: 0, scrollHeight: 500, clientHeight: 600 }, { scrollHeight: 2000, clientHeight: 600 })).toBe(0);
});
