// The capture's full-page screenshot, taken through the DevTools protocol with Chromium's fast PNG
// encoder (`optimizeForSpeed`: zlib level 1, the "Up" filter on every row). Playwright's
// page.screenshot() has no way to ask for it, and Chromium's default encoder took 1.6 s for a
// 1440 x 4 942 px page that the fast one encodes in 0.35 s, for the same pixels (decision 0013).
// Before the shot the page is made still the way Playwright's `animations: "disabled"` and
// `caret: "hide"` make it.
import type { BrowserContext, Frame, Page } from "playwright-core";
import { PAGE_GLOBAL } from "./page/global";

export interface ScreenshotArea {
  /** CSS px from the top left of the page; the capture's viewport width by its capped height. */
  width: number;
  height: number;
  /** The viewport, to know whether the area reaches beyond it. */
  viewportWidth: number;
  viewportHeight: number;
}

/**
 * Runs in every frame. Finite animations and transitions jump to their end, infinite ones are
 * cancelled (back to their first frame), and ones that start meanwhile get the same; text carets
 * turn transparent. Nothing is put back: the capture closes the page after its screenshot. The
 * carets' styles are the capture's changes, not the page's: the page script is told to forget them.
 */
function stillFrame(pageGlobal: string): void {
  const roots: (Document | ShadowRoot)[] = [];
  const collect = (root: Document | ShadowRoot) => {
    roots.push(root);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
      const shadow = node instanceof Element ? node.shadowRoot : null;
      if (shadow) collect(shadow);
    }
  };
  collect(document);
  const cancelled = new WeakSet<Animation>();
  const still = (root: Document | ShadowRoot) => {
    for (const animation of root.getAnimations()) {
      if (!animation.effect || animation.playbackRate === 0 || cancelled.has(animation)) continue;
      try {
        if (Number.isFinite(animation.effect.getComputedTiming().endTime)) animation.finish();
        else {
          animation.cancel();
          cancelled.add(animation);
        }
      } catch {
        // An animation that cannot finish (a negative playback rate with no start) stays as it is.
      }
    }
  };
  for (const root of roots) {
    still(root);
    root.addEventListener("transitionrun", () => still(root));
    root.addEventListener("animationstart", () => still(root));
    for (const el of root.querySelectorAll<HTMLElement>("input,textarea,[contenteditable]")) {
      el.style.setProperty("caret-color", "transparent", "important");
    }
  }
  const api = (window as unknown as Record<string, { forgetOwnChanges?: () => void } | undefined>)[pageGlobal];
  api?.forgetOwnChanges?.();
}

async function stillAllFrames(page: Page): Promise<void> {
  // A frame may go away meanwhile (an ad reloading): it is not in the picture then either.
  await Promise.all(page.frames().map((frame: Frame) => frame.evaluate(stillFrame, PAGE_GLOBAL).catch(() => {})));
}

/** The PNG of the area, pixel for pixel what page.screenshot() would give. */
export async function takeScreenshot(context: BrowserContext, page: Page, area: ScreenshotArea): Promise<Buffer> {
  await stillAllFrames(page);
  const session = await context.newCDPSession(page);
  try {
    const beyond = area.width > area.viewportWidth || area.height > area.viewportHeight;
    const { data } = await session.send("Page.captureScreenshot", {
      format: "png",
      optimizeForSpeed: true,
      captureBeyondViewport: beyond,
      clip: { x: 0, y: 0, width: area.width, height: area.height, scale: 1 },
    });
    return Buffer.from(data, "base64");
  } finally {
    await session.detach().catch(() => {});
  }
}
