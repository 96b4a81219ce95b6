// Where the config's `ignore.selectors` are on your page, per viewport, so the visual diff can mask
// them. A run's capture takes no selectors, so the page is opened once more here, with the
// capture's own context options (viewport, scale, device mode, user agent), and each match's box is
// read in page coordinates.
import type { Browser } from "playwright-core";
import { CHROMIUM_ARGS, findChromium } from "#server/lib/chromium";
import type { Box, Viewport } from "#server/modules/capture/model";
import { captureContextOptions } from "#server/modules/capture/public";
import { CheckRunError } from "./run";

const LOAD_MS = 30_000;
/** Anti-aliased edges spill a pixel or two past an element's box. */
const PAD_PX = 2;

// A string, not a function: the compiled binary is minified, and the page must get plain source.
const locateScript = (selectors: string[]) => `(() => ${JSON.stringify(selectors)}.map((sel) => {
  let found;
  try { found = document.querySelectorAll(sel); } catch { return null; }
  return Array.from(found, (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
  });
}))()`;

/** A box on the page masked because an ignore selector matched there. */
export type SelectorBox = Box & { selector: string };

/** Where the selectors match on a page; `close` ends its browser. */
export interface IgnoreLocator {
  locate(url: string, viewports: Viewport[]): Promise<Map<Viewport, SelectorBox[]>>;
  close(): Promise<void>;
}

/**
 * Launches the browser that locates the selectors and checks that each one is CSS first, on a
 * blank page: a typo fails the check at once, not after the whole comparison has run.
 */
export async function openIgnoreLocator(selectors: string[], chromiumPath: string | undefined): Promise<IgnoreLocator> {
  if (selectors.length === 0) return { locate: async () => new Map(), close: async () => {} };
  const executablePath = findChromium(chromiumPath);
  if (!executablePath) throw new CheckRunError("ignore.selectors: Chromium was not found to locate them (set CHROMIUM_PATH)");
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, timeout: LOAD_MS });
  const close = () => browser.close().catch(() => {});
  try {
    const page = await browser.newPage();
    const found = (await page.evaluate(locateScript(selectors))) as (Box[] | null)[];
    await page.close();
    throwIfInvalid(found, selectors);
  } catch (e) {
    await close();
    throw e;
  }
  return { locate: (url, viewports) => locateIn(browser, url, selectors, viewports), close };
}

function throwIfInvalid(found: (Box[] | null)[], selectors: string[]) {
  const bad = found.indexOf(null);
  if (bad >= 0) throw new CheckRunError(`ignore.selectors[${bad}]: "${selectors[bad]}" is not a valid CSS selector`);
}

async function locateIn(browser: Browser, url: string, selectors: string[], viewports: Viewport[]): Promise<Map<Viewport, SelectorBox[]>> {
  const boxes = new Map<Viewport, SelectorBox[]>();
  for (const viewport of viewports) {
    const context = await browser.newContext(captureContextOptions(browser, viewport));
    try {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: "load", timeout: LOAD_MS }).catch((e: unknown) => {
        throw new CheckRunError(
          `ignore.selectors: could not open ${url} to locate them (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
        );
      });
      const found = (await page.evaluate(locateScript(selectors))) as (Box[] | null)[];
      throwIfInvalid(found, selectors);
      boxes.set(
        viewport,
        found.flatMap((list, i) =>
          (list ?? [])
            .filter((b) => b.width > 0 && b.height > 0)
            .map((b) => ({
              selector: selectors[i]!,
              x: Math.max(0, b.x - PAD_PX),
              y: Math.max(0, b.y - PAD_PX),
              width: b.width + 2 * PAD_PX,
              height: b.height + 2 * PAD_PX,
            })),
        ),
      );
    } finally {
      await context.close().catch(() => {});
    }
  }
  return boxes;
}
