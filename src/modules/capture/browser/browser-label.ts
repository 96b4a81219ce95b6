// Which browser measured a page's timing. The same page paints sooner in Chromium's headless shell
// than in the desktop build (Lighthouse's own LCP moves by 10–26 % when only the build changes;
// docs/decisions/0012-headless-shell.md), so a timing
// figure says where it was taken, and samples from another browser are never mixed in.
import type { Browser } from "playwright-core";

const labels = new WeakMap<Browser, Promise<string>>();

/**
 * How Chromium names itself over DevTools (`Browser.getVersion` product), as a reader would: the
 * headless shell says "HeadlessChrome/156.0.8078.79", the desktop build (headless or not) "Chrome/…".
 */
export function labelOf(product: string, fallbackVersion: string): string {
  const slash = product.indexOf("/");
  const name = slash > 0 ? product.slice(0, slash) : "";
  const version = slash > 0 ? product.slice(slash + 1) : fallbackVersion;
  if (name === "HeadlessChrome") return `Chromium headless shell ${version}`;
  if (name === "Chrome") return `Chromium ${version} (desktop build)`;
  return `Chromium ${fallbackVersion}`;
}

/** The label of a launched browser; asked once per browser. */
export function browserLabel(browser: Browser): Promise<string> {
  let label = labels.get(browser);
  if (!label) {
    label = readLabel(browser);
    labels.set(browser, label);
  }
  return label;
}

async function readLabel(browser: Browser): Promise<string> {
  try {
    const session = await browser.newBrowserCDPSession();
    try {
      const { product } = await session.send("Browser.getVersion");
      return labelOf(product, browser.version());
    } finally {
      await session.detach().catch(() => {});
    }
  } catch {
    // The browser is busy or going away: its version alone (still known to Playwright) for this
    // capture, and the next one asks again.
    labels.delete(browser);
    return `Chromium ${browser.version()}`;
  }
}
