import { beforeEach, describe, expect, test } from "bun:test";
import { useMemoryStorage } from "#tests/support/memory-storage";
import { RECENT_PAGES_KEY, previousPage, readRecentPages, recordVisit } from "./recent-pages";

useMemoryStorage("sessionStorage");

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
      JSON.stringify([
        { path: "//evil.example", title: "x" },
        { path: "https://evil.example", title: "x" },
        { path: "/ok", title: 3 },
        { path: "/activity", title: "Activity" },
      ]),
    );
    expect(readRecentPages()).toEqual([{ path: "/activity", title: "Activity" }]);
  });
});
