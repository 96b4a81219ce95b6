// The page script reaches a page in two parts: only the early one (the vitals listeners and the
// scroll watch) is in the page while it loads; the gatherers arrive with the first call that needs
// them, and the early part's state (the load's vitals) survives their arrival.
import { describe, expect, test } from "bun:test";
import { callPage } from "#server/modules/capture/page-script/page-script";
import { PAGE_GLOBAL } from "#server/modules/capture/page/global";
import { html, noisyPng, useHarness } from "./gatherers/harness";

const h = useHarness({
  "/": html(`<h1>Two parts</h1><img id="hero" src="/hero.png" width="600" height="300" alt="hero">`),
  "/hero.png": { body: noisyPng(600, 300), type: "image/png" },
});

const functions = (page: import("playwright-core").Page) =>
  page.evaluate((global) => Object.keys((window as unknown as Record<string, object>)[global] ?? {}).sort(), PAGE_GLOBAL);

describe("the page script", () => {
  test("only the early part is in the page during its load; the gatherers come with the first call, and the load's vitals stay", async () => {
    const page = await h.open("/");
    expect(await functions(page)).toEqual(["missedLazyContent", "readVitals", "waitForFonts", "wakeLazyContent"]);
    const before = await callPage(page, "readVitals", { paintWaitMs: 1000 });
    expect(before.lcpElement).toBe("img#hero");

    const dom = await callPage(page, "measure", { maxY: 4000, viewportWidth: 1440, viewportHeight: 900 });
    expect(dom.title).toBe("Fixture");
    expect(await functions(page)).toEqual([
      "audit",
      "changedSinceWatch",
      "findConsentBanners",
      "forgetOwnChanges",
      "gather",
      "measure",
      "missedLazyContent",
      "readResources",
      "readVitals",
      "waitForFonts",
      "wakeLazyContent",
      "watchForChanges",
    ]);
    // The early copy still answers, with what its listeners saw from the start of the load.
    const after = await callPage(page, "readVitals", { paintWaitMs: 1000 });
    expect(after.lcpElement).toBe("img#hero");
    expect(after.lcpMs).toBe(before.lcpMs);
    await page.context().close();
  });
});
