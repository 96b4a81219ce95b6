// Vitals gatherer: TTFB, FCP, LCP and CLS as Google's web-vitals library defines them, with the
// element that painted the largest contentful paint (web-vitals' attribution build), plus the
// navigation's DOMContentLoaded and load times, and the long tasks Total Blocking Time is summed from.
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

const latest: {
  ttfb?: number;
  fcp?: number;
  lcp?: number;
  lcpElement?: string | null;
  /** The reported LCP entry's size (px²) and element, to tell whether an image's paint is still to come. */
  lcpSize?: number;
  lcpNode?: Element | null;
  cls?: number;
} = {};
let watching = false;

/** Long tasks kept, at most: a page busy for longer than this many of them has its TBT measured on these. */
const MAX_LONG_TASKS = 500;
const longTasks: { startMs: number; durationMs: number }[] = [];
let longTaskObserver: PerformanceObserver | null = null;

/**
 * Main-thread tasks over 50 ms (Long Tasks API), what Total Blocking Time is summed from. The
 * observer asks for the buffered entries too, so a page script installed after the load began
 * still sees the tasks before it.
 */
function watchLongTasks(): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes("longtask")) return;
  const keep = (entries: PerformanceEntryList) => {
    for (const e of entries)
      if (longTasks.length < MAX_LONG_TASKS) longTasks.push({ startMs: Math.round(e.startTime), durationMs: Math.round(e.duration) });
  };
  try {
    longTaskObserver = new PerformanceObserver((list) => keep(list.getEntries()));
    longTaskObserver.observe({ type: "longtask", buffered: true });
  } catch {
    longTaskObserver = null;
  }
}

function readLongTasks(): Vitals["longTasks"] {
  if (!longTaskObserver) return undefined;
  // Entries already queued for the observer but not yet delivered to it.
  const pending = longTaskObserver.takeRecords();
  for (const e of pending)
    if (longTasks.length < MAX_LONG_TASKS) longTasks.push({ startMs: Math.round(e.startTime), durationMs: Math.round(e.duration) });
  return { tasks: [...longTasks], readAtMs: Math.round(performance.now()) };
}

export function watchVitals(): void {
  if (watching) return;
  watching = true;
  watchLongTasks();
  const opts = { reportAllChanges: true };
  onTTFB((m) => void (latest.ttfb = m.value), opts);
  onFCP((m) => void (latest.fcp = m.value), opts);
  onCLS((m) => void (latest.cls = m.value), opts);
  onLCP(
    (m) => {
      latest.lcp = m.value;
      latest.lcpElement = m.attribution.target ?? null;
      latest.lcpSize = m.attribution.lcpEntry?.size ?? 0;
      latest.lcpNode = m.attribution.lcpEntry?.element ?? null;
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
    parts.unshift(
      tag +
        Array.from(el.classList)
          .slice(0, 2)
          .map((c) => `.${c.slice(0, 40)}`)
          .join(""),
    );
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
/** Chromium does not count images drawn at fewer bits per pixel than this (placeholders) as LCP. */
const MIN_LCP_BPP = 0.05;

/**
 * The vitals so far. Waits first for the first contentful paint (a fast page fires `load` before it
 * has painted), at most `paintWaitMs`; a page that paints nothing contentful reports no FCP/LCP.
 * Then for loaded images in view to paint and be reported, at most `paintWaitMs` more.
 */
export async function readVitals(args: { paintWaitMs: number }): Promise<Vitals> {
  watchVitals(); // installed late (see page-script/page-script.ts): web-vitals reads the buffered entries
  const painted = () => performance.getEntriesByType("paint").some((p) => p.name === "first-contentful-paint");
  const until = performance.now() + args.paintWaitMs;
  while (!painted() && performance.now() < until) await nextFrame(50);
  await awaitImagePaints(args.paintWaitMs);
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
    longTasks: readLongTasks(),
  };
}

/**
 * A loaded image paints only once decoded, often frames after `load`, and its LCP entry arrives
 * when that frame has been presented, later still on a busy machine. Waits (at most `maxMs`) until
 * no loaded image in view would be a larger paint than the LCP reported so far. CSS background
 * images (a hero photo on a header) count too: Chromium reports them as LCP candidates as well.
 */
async function awaitImagePaints(maxMs: number): Promise<void> {
  const images: { el: Element; area: number; decoded: Promise<unknown> }[] = [];
  for (const img of Array.from(document.images)) {
    if (!img.complete || !(img.naturalWidth > 0) || !detailed(img)) continue;
    const area = lcpArea(img);
    if (area > 0) images.push({ el: img, area, decoded: img.decode().catch(() => {}) });
  }
  images.push(...backgroundHeroes());
  if (!images.length) return;
  const deadline = performance.now() + maxMs;
  await Promise.race([Promise.all(images.map((i) => i.decoded)), new Promise((r) => setTimeout(r, maxMs))]);
  const pending = () => images.some((i) => latest.lcpNode !== i.el && i.area > (latest.lcpSize ?? 0) * 1.05);
  while (pending() && performance.now() < deadline) await nextFrame(50);
}

/** Elements checked for a background image, at most: heroes sit near the top of the document. */
const MAX_BACKGROUND_SCAN = 3000;

/**
 * Elements in view painting a loaded background image over at least a tenth of the viewport; the
 * area their paint counts for is known once the image is decoded (0 until then, or if it fails).
 */
function backgroundHeroes(): { el: Element; area: number; decoded: Promise<unknown> }[] {
  const out: { el: Element; area: number; decoded: Promise<unknown> }[] = [];
  const all = document.body ? document.body.getElementsByTagName("*") : [];
  const n = Math.min(all.length, MAX_BACKGROUND_SCAN);
  for (let i = 0; i < n; i++) {
    const el = all[i]!;
    const r = el.getBoundingClientRect();
    if (r.bottom <= 0 || r.top >= innerHeight || r.width * r.height < (innerWidth * innerHeight) / 10) continue;
    const url = /url\(["']?([^"')]+)["']?\)/.exec(getComputedStyle(el).backgroundImage)?.[1];
    if (!url) continue;
    const abs = new URL(url, document.baseURI).href;
    const entry = performance.getEntriesByName(abs, "resource")[0] as PerformanceResourceTiming | undefined;
    if (!entry || !(entry.responseEnd > 0)) continue; // not loaded (or failed): it will not paint now
    const bytes = entry.encodedBodySize;
    if (bytes > 0 && (bytes * 8) / (r.width * r.height) < MIN_LCP_BPP) continue; // too plain to count
    const shown =
      Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
    const probe = new Image();
    probe.src = abs;
    const item = { el, area: 0, decoded: Promise.resolve() as Promise<unknown> };
    // Like an <img>, an upscaled background counts for its intrinsic size only.
    item.decoded = probe
      .decode()
      .then(() => void (item.area = shown * Math.min(1, (probe.naturalWidth * probe.naturalHeight) / (r.width * r.height))))
      .catch(() => {});
    out.push(item);
  }
  return out;
}

/** The size an image's paint counts for in LCP: its part in the viewport, scaled down when upscaled. */
function lcpArea(img: HTMLImageElement): number {
  const r = img.getBoundingClientRect();
  const shown = r.width * r.height;
  if (shown <= 0 || !img.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return 0;
  const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
  const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  return w * h * Math.min(1, (img.naturalWidth * img.naturalHeight) / shown);
}

/** False for an image too plain to count as LCP; true when its size is unknown (cross-origin, data:). */
function detailed(img: HTMLImageElement): boolean {
  const entry = performance.getEntriesByName(img.currentSrc, "resource")[0] as PerformanceResourceTiming | undefined;
  const bytes = entry?.encodedBodySize ?? 0;
  const r = img.getBoundingClientRect();
  return bytes === 0 || (bytes * 8) / (r.width * r.height) >= MIN_LCP_BPP;
}
