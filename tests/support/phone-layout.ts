import type { Page } from "playwright-core";

/** What a phone page's emulation decides and a lost emulation changes: layout width, pointer, height. */
export const phoneLayout = (page: Page) =>
  page.evaluate(() => ({
    layoutWidth: innerWidth,
    coarse: matchMedia("(pointer: coarse)").matches,
    height: document.documentElement.scrollHeight,
  }));
