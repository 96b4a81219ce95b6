// The capture's full-page screenshot, taken through the DevTools protocol with Chromium's fast PNG
// encoder (`optimizeForSpeed`: zlib level 1, the "Up" filter on every row). Playwright's
// page.screenshot() has no way to ask for it, and Chromium's default encoder takes 1.6 s for a
// 1440 x 4 942 px page that the fast one encodes in 0.35 s, for the same pixels (decision 0013).
// Before the shot the page is made still the way Playwright's `animations: "disabled"` and
// `caret: "hide"` make it.
import type { BrowserContext, CDPSession, Frame, Page } from "playwright-core";
import { PAGE_GLOBAL } from "../page/global";

export interface ScreenshotArea {
  /** CSS px from the top left of the page; the capture's viewport width by its capped height. */
  width: number;
  height: number;
  /** The viewport, to know whether the area reaches beyond it. */
  viewportWidth: number;
  viewportHeight: number;
  /** The page emulates a phone (the mobile viewport: device metrics with `mobile`, touch). */
  mobile: boolean;
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

/**
 * The CDP session a page's screenshots are taken through: one per page, attached while the page
 * lives. Chromium answers a capture beyond the viewport, asked through a CDP session that did not
 * set the page's device emulation, without that emulation: a phone page loses its touch screen and
 * its 980 px layout viewport (the Motion noise site lays out 390 px wide, with a fine pointer, 79 px
 * taller), and any later measurement of it measures another page. So this CDP session carries the
 * same emulation Playwright set for the context and is never detached (detaching clears what it
 * set); it ends with the page.
 */
const sessions = new WeakMap<Page, Promise<CDPSession>>();

function sessionFor(context: BrowserContext, page: Page, area: ScreenshotArea): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = (async () => {
      const s = await context.newCDPSession(page);
      if (area.mobile) {
        const portrait = area.viewportHeight >= area.viewportWidth;
        await s.send("Emulation.setDeviceMetricsOverride", {
          mobile: true,
          width: area.viewportWidth,
          height: area.viewportHeight,
          screenWidth: area.viewportWidth,
          screenHeight: area.viewportHeight,
          deviceScaleFactor: 1,
          screenOrientation: portrait ? { angle: 0, type: "portraitPrimary" } : { angle: 90, type: "landscapePrimary" },
        });
        await s.send("Emulation.setTouchEmulationEnabled", { enabled: true });
      }
      return s;
    })();
    sessions.set(page, session);
    session.catch(() => sessions.delete(page));
  }
  return session;
}

/**
 * The area from the top left of the page in document coordinates, as is (nothing stilled), fast
 * encoded; the page left as it was, its emulation intact, for whatever comes next.
 */
export async function captureArea(
  context: BrowserContext,
  page: Page,
  area: ScreenshotArea,
  encoding: { format: "png" } | { format: "jpeg"; quality: number; scale: number } = { format: "png" },
  /** Document coordinates even for an area the viewport could hold (the page may be scrolled meanwhile). */
  wherever = false,
): Promise<Buffer> {
  const session = await sessionFor(context, page, area);
  const beyond = wherever || area.width > area.viewportWidth || area.height > area.viewportHeight;
  const { data } = await session.send("Page.captureScreenshot", {
    format: encoding.format,
    ...(encoding.format === "jpeg" ? { quality: encoding.quality } : {}),
    optimizeForSpeed: true,
    captureBeyondViewport: beyond,
    clip: { x: 0, y: 0, width: area.width, height: area.height, scale: encoding.format === "jpeg" ? encoding.scale : 1 },
  });
  // The capture beyond the viewport turns touch emulation off even so; Playwright turns it back on
  // after its own shots, and so do we.
  if (beyond && area.mobile) await session.send("Emulation.setTouchEmulationEnabled", { enabled: true });
  return Buffer.from(data, "base64");
}

/** The PNG of the area, pixel for pixel what page.screenshot() would give (animations and carets stilled). */
export async function takeScreenshot(context: BrowserContext, page: Page, area: ScreenshotArea): Promise<Buffer> {
  await stillAllFrames(page);
  return captureArea(context, page, area);
}
