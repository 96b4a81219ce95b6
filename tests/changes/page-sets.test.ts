// `pages` changes: the diff of two runs' page sets (src/modules/changes/pages.ts).
import { expect, test } from "bun:test";
import { LISTED_PAGE_CHANGES, pageSetChanges, type PageSet } from "#server/modules/changes/pages";

const set = (nav: string[] | null, sitemap: string[] | null): PageSet => ({
  nav: nav && nav.map((path) => ({ path, role: path === "/pricing" ? "pricing" : "other" })),
  sitemap: sitemap && sitemap.map((path) => ({ path, role: path === "/pricing" ? "pricing" : "other" })),
});

test("the same pages in both runs are no change, whatever the order or a trailing slash", () => {
  expect(pageSetChanges(set(["/pricing", "/about"], ["/a", "/b/"]), set(["/about/", "/pricing"], ["/b", "/a"]))).toEqual([]);
});

test("a page new in the navigation and one removed from the sitemap: navigation first, each naming its source", () => {
  const found = pageSetChanges(set(["/about"], ["/about", "/old-offer"]), set(["/about", "/pricing"], ["/about"]));
  expect(found.map((c) => [c.kind, c.severity, c.summary, c.before, c.after, c.evidence.source, c.role, c.path])).toEqual([
    ["pages", "medium", "New page in navigation: /pricing", null, "/pricing", "nav", "pricing", "/pricing"],
    ["pages", "low", "Page removed from sitemap: /old-offer", "/old-offer", null, "sitemap", "other", "/old-offer"],
  ]);
  expect(found.every((c) => c.viewport === "desktop" && c.colorScheme === "light" && c.pageId === null)).toBe(true);
});

test("a path that is one of the site's pages names that page and its role", () => {
  const [c] = pageSetChanges(set(null, ["/plans/"]), set(null, []), [{ id: "p9", path: "/plans", role: "pricing" }]);
  expect(c).toMatchObject({ pageId: "p9", role: "pricing", summary: "Page removed from sitemap: /plans/" });
});

test("a source not read in full in either run is not compared (no page reported removed)", () => {
  expect(pageSetChanges(set(["/a"], ["/a", "/b"]), set(null, null))).toEqual([]);
  expect(pageSetChanges(set(null, ["/a"]), set(["/x"], ["/a"]))).toEqual([]);
  expect(pageSetChanges(set(["/a"], null), set(["/a"], ["/b"]))).toEqual([]);
});

test("past the listed limit, one change counts the rest", () => {
  const many = Array.from({ length: LISTED_PAGE_CHANGES + 5 }, (_, i) => `/blog/post-${String(i).padStart(2, "0")}`);
  const found = pageSetChanges(set(null, []), set(null, many));
  expect(found).toHaveLength(LISTED_PAGE_CHANGES + 1);
  expect(found.at(-1)!.summary).toBe("5 more new pages in sitemap");
});
