// Vitals gatherer: TTFB, FCP, LCP and CLS as Google's web-vitals library defines them, with the
// element that painted the largest contentful paint (web-vitals' attribution build), plus the
// navigation's DOMContentLoaded and load times.
//
// The page script starts the listeners as soon as it is installed, before the page's own scripts.
// web-vitals reports LCP on its own only once input or a visibility change ends it, so we ask for
// every change (reportAllChanges) and read the latest value when the capture wants it: after load
// and before it scrolls, so our own scrolling can't move the figures.

import { onLCP } from "web-vitals/attribution/onLCP.js";
import { onCLS } from "web-vitals/onCLS.js";
import { onFCP } from "web-vitals/onFCP.js";
import { onTTFB } from "web-vitals/onTTFB.js";
import type { Vitals } from "../page/types";

const latest: { ttfb?: number; fcp?: number; lcp?: number; lcpElement?: string | null; cls?: number } = {};
let watching = false;

export function watchVitals(): void {
  if (watching) return;
  watching = true;
  const opts = { reportAllChanges: true };
  onTTFB((m) => void (latest.ttfb = m.value), opts);
  onFCP((m) => void (latest.fcp = m.value), opts);
  onCLS((m) => void (latest.cls = m.value), opts);
  onLCP(
    (m) => {
      latest.lcp = m.value;
      latest.lcpElement = m.attribution.target ?? null;
    },
    { ...opts, generateTarget: describeElement },
  );
}

/**
 * A short selector-like name for an element: its tag with its id ("img#hero"), or with up to two
 * classes under its nearest ancestors, up to one with an id ("section.hero>div.inner>h1").
 */
export function describeElement(node: Node | null): string | undefined {
  const parts: string[] = [];
  let el: Element | null = node instanceof Element ? node : (node?.parentElement ?? null);
  while (el && parts.length < 4 && parts.join(">").length < 80) {
    const tag = el.tagName.toLowerCase();
    if (el.id) {
      parts.unshift(`${tag}#${el.id.slice(0, 60)}`);
      break;
    }
    if (parts.length && (tag === "body" || tag === "html")) break;
    parts.unshift(tag + Array.from(el.classList).slice(0, 2).map((c) => `.${c.slice(0, 40)}`).join(""));
    el = el.parentElement;
  }
  return parts.length ? parts.join(">") : undefined;
}

/** One rendered frame: the task after the next animation frame, or `timeoutMs` on a page whose frames stall. */
const nextFrame = (timeoutMs: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      setTimeout(resolve, 0);
    });
  });

const ms = (v: number | undefined | null) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : null);

/** How long we wait, at most, for web-vitals to hear of paints the timeline already has. */
const REPORT_WAIT_MS = 250;

/**
 * The vitals so far. Waits first for the first contentful paint (a fast page fires `load` before it
 * has painted), at most `paintWaitMs`; a page that paints nothing contentful reports no FCP/LCP.
 */
export async function readVitals(args: { paintWaitMs: number }): Promise<Vitals> {
  watchVitals(); // installed late (see page-script.ts): web-vitals reads the buffered entries
  const painted = () => performance.getEntriesByType("paint").some((p) => p.name === "first-contentful-paint");
  const until = performance.now() + args.paintWaitMs;
  while (!painted() && performance.now() < until) await nextFrame(50);
  // An image paints, and becomes the LCP candidate, only once decoded: often a frame or more after
  // `load`. Let the ones in view decode, then give the paint a frame to land and one to be reported.
  const inView = Array.from(document.images).filter((img) => {
    if (!img.complete || img.naturalWidth === 0) return false;
    const r = img.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top < innerHeight && r.bottom > 0 && r.left < innerWidth && r.right > 0;
  });
  if (inView.length) {
    const decoded = Promise.all(inView.map((img) => img.decode().catch(() => {})));
    await Promise.race([decoded, new Promise((r) => setTimeout(r, args.paintWaitMs))]);
    await nextFrame(50);
  }
  // web-vitals hears of entries from performance observers, a task after they are queued, and CLS
  // starts only once FCP is reported. At least one frame also lets a paint that is due land.
  const layoutShifts = PerformanceObserver.supportedEntryTypes.includes("layout-shift");
  const heard = () => !painted() || (latest.fcp !== undefined && (!layoutShifts || latest.cls !== undefined));
  const heardBy = performance.now() + REPORT_WAIT_MS;
  do await nextFrame(50);
  while (!heard() && performance.now() < heardBy);

  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  // web-vitals reports TTFB after `load`, which a capture that stopped waiting for load never sees.
  const ttfb = latest.ttfb ?? (nav ? nav.responseStart - nav.startTime : null);
  const cls = latest.cls ?? (layoutShifts ? 0 : null);
  return {
    ttfbMs: ms(ttfb),
    fcpMs: ms(latest.fcp),
    lcpMs: ms(latest.lcp),
    lcpElement: latest.lcp !== undefined ? (latest.lcpElement ?? null) : null,
    cls: cls === null ? null : Math.round(cls * 10000) / 10000,
    domContentLoadedMs: nav ? ms(nav.domContentLoadedEventEnd - nav.startTime) : null,
    loadMs: nav ? ms(nav.loadEventEnd - nav.startTime) : null,
  };
}
