// The scroll that wakes lazy content runs only when something on the page could respond to it: a
// scroll listener on the window or document, an element handed to an IntersectionObserver, or a
// native lazy image or frame. Whether the page was scrolled is read without listening for it: a
// requestAnimationFrame loop records the deepest scroll position it saw (neither counts as a reaction).
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { callPage } from "#server/modules/capture/page-script/page-script";
import { html, useHarness } from "./gatherers/harness";

const tall = (script = "", extra = "") =>
  html(
    `<h1>Tall page</h1>${extra}<div style="height:6000px"></div><p>End</p>
<script>
window.deepest = 0;
(function poll() { window.deepest = Math.max(window.deepest, window.scrollY); requestAnimationFrame(poll); })();
${script}
</script>`,
    "<style>body{margin:0;font-family:sans-serif}</style>",
  );

const h = useHarness({
  "/still": tall(),
  "/listener": tall(`addEventListener("scroll", () => {}, { passive: true });`),
  "/document-listener": tall(`document.addEventListener("scroll", () => {});`),
  "/onscroll": tall(`window.onscroll = () => {};`),
  "/observer": tall(`new IntersectionObserver(() => {}).observe(document.querySelector("p"));`),
  "/lazy-image": tall("", `<img loading="lazy" src="/pixel.svg" width="10" height="10" alt="" style="margin-top:5000px">`),
  "/element-listener": tall(`document.querySelector("h1").addEventListener("scroll", () => {});`),
  "/pixel.svg": { body: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`, type: "image/svg+xml" },
});

/** Wakes the page as the capture does; returns how far the call says it reached and how deep the page was scrolled. */
async function wake(page: Page) {
  const reached = await callPage(page, "wakeLazyContent", { maxY: 16_000, frameTimeoutMs: 100 });
  // Two frames, so the poll has seen the last position (the wake ends back at the top either way).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const deepest = await page.evaluate(() => (window as unknown as { deepest: number }).deepest);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  return { reached, deepest, height };
}

describe("the wake scroll", () => {
  test("a page where nothing reacts to scrolling is not scrolled, and counts as reached to its end", async () => {
    const page = await h.open("/still");
    const { reached, deepest, height } = await wake(page);
    expect(deepest).toBe(0);
    expect(reached).toBe(height);
    expect(await callPage(page, "missedLazyContent", { reached, maxY: 16_000 })).toBe(false);
    await page.context().close();
  });

  test("a scroll listener on an element does not count: it never hears the page scroll", async () => {
    const page = await h.open("/element-listener");
    expect((await wake(page)).deepest).toBe(0);
    await page.context().close();
  });

  for (const path of ["/listener", "/document-listener", "/onscroll", "/observer", "/lazy-image"]) {
    test(`${path.slice(1)}: the page is scrolled to its end`, async () => {
      const page = await h.open(path);
      const { reached, deepest, height } = await wake(page);
      expect(deepest).toBeGreaterThan(height - 2 * 900);
      expect(reached).toBe(height);
      await page.context().close();
    });
  }
});
