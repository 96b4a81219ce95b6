// What the capture does to a page before it measures it: scroll once so lazy content loads, check
// whether that scroll missed something, and wait for web fonts.

import { isBannerChange } from "../consent/page-masks";

/** What on the page could respond to our scroll, counted from before the page's own scripts ran. */
const reactions = { watching: false, scrollListeners: 0, observed: 0 };

/**
 * Counts the page's scroll listeners on the window and document, and the elements it hands an
 * IntersectionObserver: with neither, and no native lazy image or frame, scrolling wakes nothing,
 * so the capture skips it. Installed with the page script, before the page's own scripts.
 */
export function watchScrollReactions(): void {
  // Evaluated into a document after its scripts ran (one the init script missed), it would have
  // missed their listeners: such a page is always scrolled.
  reactions.watching = document.readyState === "loading";
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, ...args: Parameters<EventTarget["addEventListener"]>) {
    if (args[0] === "scroll" && (this === window || this === document || this === document.documentElement || this === document.body)) {
      reactions.scrollListeners++;
    }
    return add.apply(this, args);
  };
  if (typeof IntersectionObserver === "function") {
    const observe = IntersectionObserver.prototype.observe;
    IntersectionObserver.prototype.observe = function (this: IntersectionObserver, target: Element) {
      reactions.observed++;
      return observe.call(this, target);
    };
  }
}

/** True when a scroll through the page could make it load or render something it has not. */
function scrollCanWake(): boolean {
  if (!reactions.watching || reactions.scrollListeners > 0 || reactions.observed > 0) return true;
  if (window.onscroll || document.onscroll) return true;
  return document.querySelector("img[loading=lazy], iframe[loading=lazy]") !== null;
}

/**
 * Scrolls down once, a viewport at a time (up to maxY), so lazy images and scroll-triggered content
 * load, then back to the top; returns how far down the page it reached. Each step waits for one
 * rendered frame: the animation frame callback runs just before the browser renders the new
 * position, and a task queued from it runs just after, by which time that rendering has run the
 * scroll handlers and intersection observers (native loading="lazy" uses one too). The timer covers
 * a page whose frames stall.
 */
export async function wakeLazyContent(args: { maxY: number; frameTimeoutMs: number }): Promise<number> {
  const rendered = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, args.frameTimeoutMs);
      requestAnimationFrame(() => {
        clearTimeout(timer);
        setTimeout(resolve, 0);
      });
    });
  // Nothing listens: the page as laid out is all there is (a page that grows later is caught by
  // missedLazyContent, and scrolled then if what arrived can be woken).
  if (!scrollCanWake()) return Math.min(document.documentElement.scrollHeight, args.maxY);
  // Whole viewports: every band of the page is in view at one step, which is all an intersection
  // observer needs (it ignores what a sticky header covers).
  const step = Math.max(200, window.innerHeight);
  let y = 0;
  let steps = 0;
  while (steps < 100) {
    const bottom = Math.min(document.documentElement.scrollHeight, args.maxY);
    if (y + window.innerHeight >= bottom) break;
    y = Math.min(y + step, bottom);
    // "instant": a page with `scroll-behavior: smooth` (Bootstrap sets it) would otherwise still be
    // gliding when the frame renders, and be measured mid-scroll.
    window.scrollTo({ left: 0, top: y, behavior: "instant" });
    steps++;
    await rendered();
  }
  const reached = Math.min(document.documentElement.scrollHeight, args.maxY, y + window.innerHeight);
  window.scrollTo({ left: 0, top: 0, behavior: "instant" });
  await rendered();
  return reached;
}

/**
 * True when the scroll may have missed something: the page grew past what it reached (a section a
 * script rendered late), or a visible lazy image above maxY was never requested.
 */
export function missedLazyContent(args: { reached: number; maxY: number }): boolean {
  if (Math.min(document.documentElement.scrollHeight, args.maxY) > args.reached + 1) return true;
  for (const img of Array.from(document.querySelectorAll<HTMLImageElement>("img[loading=lazy]"))) {
    if (img.complete) continue;
    const box = img.getBoundingClientRect();
    if (box.width > 0 && box.height > 0 && box.top + window.scrollY < args.maxY) return true;
  }
  return false;
}

/** Waits for web fonts, giving up after `timeoutMs` so a stuck font can't stall the capture. */
export async function waitForFonts(timeoutMs: number): Promise<boolean> {
  if (!document.fonts) return true;
  return Promise.race([document.fonts.ready.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs))]);
}

/** Changes to the document since watchForChanges(); null before the first call. */
let watched: { observer: MutationObserver; changed: boolean } | null = null;

/**
 * Starts noting any change to the document (nodes, attributes, text). The capture measures while
 * the network goes quiet, and measures again if the page changed meanwhile. Web fonts are not
 * watched here: the page's own have loaded by now (the capture waited for them), a font its new
 * content needs comes with that content (a change) and over the network (a request); and the
 * full-page screenshot itself makes Chromium load the page's faces again from memory, which is
 * not a change of the page.
 */
export function watchForChanges(_: void): void {
  watched?.observer.disconnect();
  const state = { changed: false, observer: new MutationObserver((records) => noteChanges(state, records)) };
  state.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  watched = state;
}

/** Whether the document changed since watchForChanges() (true when it was never called). */
export function changedSinceWatch(_: void): boolean {
  if (!watched) return true;
  noteChanges(watched, watched.observer.takeRecords());
  return watched.changed;
}

/** A consent banner closing after its answer is not a change of the page (consent/page-masks.ts). */
function noteChanges(state: { changed: boolean }, records: MutationRecord[]): void {
  if (records.some((r) => !isBannerChange(r))) state.changed = true;
}

/**
 * Forgets the changes made in this task so far: the screenshot's own (hiding text carets), made
 * synchronously just before. Records are delivered after each task, so the page's own changes from
 * earlier tasks have already been noted.
 */
export function forgetOwnChanges(_: void): void {
  watched?.observer.takeRecords();
}
