import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { RECENT_PAGES_KEY, previousPage, readRecentPages, recordVisit } from "./recent-pages";

/** A Storage stand-in: these tests need storage, not a DOM. */
class MemoryStorage implements Storage {
  private m = new Map<string, string>();
  get length() {
    return this.m.size;
  }
  clear() {
    this.m.clear();
  }
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  key(i: number) {
    return [...this.m.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  setItem(k: string, v: string) {
    this.m.set(k, String(v));
  }
}

const had = Object.getOwnPropertyDescriptor(globalThis, "sessionStorage");
beforeAll(() => Object.defineProperty(globalThis, "sessionStorage", { value: new MemoryStorage(), configurable: true, writable: true }));
afterAll(() => {
  if (had) Object.defineProperty(globalThis, "sessionStorage", had);
  else delete (globalThis as { sessionStorage?: Storage }).sessionStorage;
});


beforeEach(() => sessionStorage.clear());

describe("recent pages", () => {
  test("the previous page is the latest visit that is not the current page", () => {
    expect(previousPage("/dashboard")).toBeNull();
    recordVisit({ path: "/dashboard", title: "Mission Control" });
    expect(previousPage("/dashboard")).toBeNull();
    recordVisit({ path: "/comparison", title: "Compare Websites" });
    recordVisit({ path: "/trends", title: "Trends" });
    expect(previousPage("/trends")).toEqual({ path: "/comparison", title: "Compare Websites" });
  });

  test("revisiting moves a page to the front without duplicates; keeps 8", () => {
    for (let i = 0; i < 10; i++) recordVisit({ path: `/p${i}`, title: `P${i}` });
    recordVisit({ path: "/p5", title: "P5" });
    const pages = readRecentPages();
    expect(pages).toHaveLength(8);
    expect(pages.map((p) => p.path).slice(0, 3)).toEqual(["/p5", "/p9", "/p8"]);
    expect(new Set(pages.map((p) => p.path)).size).toBe(8);
  });

  test("ignores tampered storage, including off-site paths", () => {
    sessionStorage.setItem(RECENT_PAGES_KEY, "{not json");
    expect(readRecentPages()).toEqual([]);
    sessionStorage.setItem(
      RECENT_PAGES_KEY,
      JSON.stringify([{ path: "//evil.example", title: "x" }, { path: "https://evil.example", title: "x" }, { path: "/ok", title: 3 }, { path: "/activity", title: "Activity" }]),
    );
    expect(readRecentPages()).toEqual([{ path: "/activity", title: "Activity" }]);
  });
});
