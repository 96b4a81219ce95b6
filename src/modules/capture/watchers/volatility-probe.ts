// Finds the parts of a page that change by themselves while it is being captured, so change
// detection can tell a page that moves (a carousel, a ticker, a rotating word) from a page that
// changed. It wraps the Browser handed to capturePage(): every context it makes gets an init
// script and a binding, and the capture itself is untouched (same navigation, same guard, same
// timing). Two signals, both reported as boxes plus every text those parts can show:
// - structure: a container whose same-kind children are shown one (or a few) at a time while the
//   others are hidden or clipped — carousels, slideshows, fade rotators — or that calls itself a
//   carousel (aria-roledescription, common class names). Their hidden slides' text is included, so
//   whichever slide the next capture lands on is known to be part of the rotation;
// - behaviour: an element whose content, class or style changes again and again after `load`
//   (the first change is usually lazy content arriving; the second one is the page moving).
// It also says whether opacity or colour animations were running (colours measured then may be
// caught mid-fade), and which colours the moving parts paint (every slide's fills and text).
// Tabs and disclosure widgets hide siblings too but do not change on their own; they are excluded.

import type { Browser, BrowserContext } from "playwright-core";
import type { Box } from "../model";
import { mergeVolatility, type Volatility } from "./volatility";

const BINDING = "__designIntelVolatility";
const REPORT_EVERY_MS = 400;

/** Runs in the page, from document start. Kept self-contained: it is serialised as source. */
function pageProbe(binding: string, everyMs: number) {
  type Found = { box: { x: number; y: number; width: number; height: number }; texts: string[]; colors: string[] };
  const send = (window as unknown as Record<string, ((r: { parts: Found[]; fading: boolean }) => void) | undefined>)[binding];
  if (typeof send !== "function") return;
  const MARKER = /(^|[\s_-])(carousel|slider|slideshow|swiper|slick|splide|glide|flickity|marquee|ticker|rotator|rotating)([\s_-]|$)/i;
  const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim().slice(0, 500);
  const boxOf = (el: Element) => {
    const r = el.getBoundingClientRect();
    return { x: Math.round(r.left + scrollX), y: Math.round(r.top + scrollY), width: Math.round(r.width), height: Math.round(r.height) };
  };
  const toHex = (css: string): string | null => {
    const m = /^rgba?\((\d+)[, ]+(\d+)[, ]+(\d+)(?:[,/ ]+([\d.]+%?))?\)$/.exec(css.trim());
    if (!m) return null;
    const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    if (alpha < 0.3) return null;
    return "#" + [m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, "0")).join("");
  };
  /** Fills and text colours used anywhere inside `root` (hidden slides included). */
  const colorsIn = (root: Element): string[] => {
    const out = new Set<string>();
    const els = [root, ...Array.from(root.querySelectorAll("*")).slice(0, 400)];
    for (const el of els) {
      const st = getComputedStyle(el);
      for (const c of [st.backgroundColor, st.color]) {
        const h = toHex(c);
        if (h) out.add(h);
      }
    }
    return [...out];
  };
  const clipperOf = (el: Element): Element | null => {
    let a = el.parentElement;
    for (let i = 0; a && i < 3; a = a.parentElement, i++) {
      const st = getComputedStyle(a);
      if (/(hidden|clip)/.test(st.overflowX) || /(hidden|clip)/.test(st.overflow)) return a;
    }
    return null;
  };
  const hidden = (el: Element) => {
    const st = getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden" || Number(st.opacity) < 0.05 || el.getAttribute("aria-hidden") === "true")
      return true;
    // Clipped out of a container that hides its overflow: a slide waiting off to the side.
    const clipper = clipperOf(el);
    if (!clipper) return false;
    const r = el.getBoundingClientRect();
    const c = clipper.getBoundingClientRect();
    return r.right <= c.left + 1 || r.left >= c.right - 1;
  };
  const signature = (el: Element) =>
    `${el.tagName}|${Array.from(el.classList)
      .filter((c) => !/^(is-)?(active|current|selected|show|visible|shown|in|on|prev|next|leaving|entering)$/i.test(c))
      .sort()
      .join(".")}`;
  const isTabLike = (el: Element) =>
    el.getAttribute("role") === "tabpanel" ||
    el.tagName === "DETAILS" ||
    el.tagName === "OPTION" ||
    (el.tagName === "LI" && !!el.closest("nav,[role=menu],[role=menubar]"));

  // Behaviour: elements whose text keeps changing after load. Class and style toggles are left to
  // the structural scan: a header that gets "scrolled" while the capture scrolls is not moving content.
  const changes = new WeakMap<Element, number>();
  const repeated = new Set<Element>();
  const seenTexts = new WeakMap<Element, Set<string>>();
  let armed = false;
  addEventListener("load", () => setTimeout(() => (armed = true), 0));
  const observer = new MutationObserver((records) => {
    if (!armed) return;
    const batch = new Set<Element>();
    for (const r of records) {
      const el = r.target.nodeType === 1 ? (r.target as Element) : r.target.parentElement;
      if (el && el !== document.documentElement && el !== document.body) batch.add(el);
    }
    for (const el of batch) {
      const text = clean(el.textContent);
      const texts = seenTexts.get(el) ?? new Set<string>();
      if (texts.has(text) && texts.size > 0 && !repeated.has(el)) {
        // Back to a text it showed before: a rotation.
        repeated.add(el);
        continue;
      }
      texts.add(text);
      seenTexts.set(el, texts);
      // Content arriving once (lazy sections) is one change; a second different text is movement.
      const n = (changes.get(el) ?? 0) + 1;
      changes.set(el, n);
      if (n >= 2) repeated.add(el);
    }
  });
  const start = () => observer.observe(document, { subtree: true, childList: true, characterData: true });
  if (document.documentElement) start();
  else document.addEventListener("readystatechange", start, { once: true });

  const scan = (): Found[] => {
    const found: Found[] = [];
    const groups = new Set<Element>();
    for (const parent of Array.from(document.querySelectorAll("body *"))) {
      const kids = Array.from(parent.children).filter((k) => !["SCRIPT", "STYLE", "TEMPLATE", "BR"].includes(k.tagName));
      if (kids.length < 2 || kids.length > 60) continue;
      const marked = MARKER.test(`${parent.className} ${parent.id}`) || /carousel/i.test(parent.getAttribute("aria-roledescription") ?? "");
      const sig = signature(kids[0]!);
      if (!kids.every((k) => signature(k) === sig) || kids.some(isTabLike)) {
        if (!marked) continue;
      }
      const shown = kids.filter((k) => !hidden(k));
      if (!marked) {
        // One to three slides in view, side by side, each a good part of the container, and the
        // rest hidden: a rotation. A list with its tail hidden behind "show more" is not (its
        // visible items are many, or stacked).
        if (shown.length === 0 || shown.length === kids.length || shown.length > 3) continue;
        const pr = parent.getBoundingClientRect();
        const rects = shown.map((k) => k.getBoundingClientRect());
        if (rects.some((r) => Math.abs(r.top - rects[0]!.top) > 4 || r.width < pr.width * 0.25)) continue;
      }
      if (Array.from(groups).some((g) => g.contains(parent))) continue;
      groups.add(parent);
    }
    for (const g of groups) {
      const container = g.parentElement && MARKER.test(`${g.parentElement.className} ${g.parentElement.id}`) ? g.parentElement : g;
      found.push({
        box: boxOf(container),
        texts: Array.from(g.children)
          .map((k) => clean(k.textContent))
          .filter(Boolean),
        colors: colorsIn(g),
      });
    }
    for (const el of repeated) {
      if (!el.isConnected || Array.from(groups).some((g) => g.contains(el))) continue;
      found.push({ box: boxOf(el), texts: [...(seenTexts.get(el) ?? []), clean(el.textContent)].filter(Boolean), colors: [] });
    }
    return found.filter((f) => f.box.width > 0 && f.box.height > 0);
  };
  const FADING = /^(opacity|color|backgroundColor|background|filter|fill)$/;
  const fading = () =>
    document.getAnimations().some((a) => {
      if (a.playState !== "running") return false;
      const frames = (a.effect as KeyframeEffect | null)?.getKeyframes?.() ?? [];
      return frames.some((k) => Object.keys(k).some((p) => FADING.test(p)));
    });
  let faded = false;
  const report = () => {
    try {
      faded ||= fading();
      send({ parts: scan(), fading: faded });
    } catch {
      // The page is going away; the last report stands.
    }
  };
  addEventListener("load", () => {
    report();
    setInterval(report, everyMs);
  });
}

function unionBox(boxes: Box[]): Box[] {
  const out: Box[] = [];
  for (const b of boxes) {
    const same = out.find(
      (o) => Math.abs(o.x - b.x) <= 2 && Math.abs(o.width - b.width) <= 2 && Math.abs(o.y - b.y) <= 2 && Math.abs(o.height - b.height) <= 2,
    );
    if (same) {
      const x2 = Math.max(same.x + same.width, b.x + b.width);
      const y2 = Math.max(same.y + same.height, b.y + b.height);
      same.x = Math.min(same.x, b.x);
      same.y = Math.min(same.y, b.y);
      same.width = x2 - same.x;
      same.height = y2 - same.y;
    } else out.push({ ...b });
  }
  return out;
}

/**
 * A Browser to pass to capturePage() in place of `browser`, and the volatility it observed.
 * One instrumented browser per capture: the report covers every page its contexts open.
 */
export function instrumentVolatility(browser: Browser): { browser: Browser; report(): Volatility } {
  const texts: string[] = [];
  const boxes: Box[] = [];
  const colors = new Set<string>();
  let fading = false;
  const newContext = async (...args: Parameters<Browser["newContext"]>): Promise<BrowserContext> => {
    const context = await browser.newContext(...args);
    try {
      await instrument(context);
    } catch {
      // The probe is an aid to change detection: a capture without it is still a capture.
    }
    return context;
  };
  const instrument = async (context: BrowserContext) => {
    await context.exposeBinding(
      BINDING,
      (_source, payload: { parts?: { box: Box; texts: string[]; colors?: string[] }[]; fading?: boolean }) => {
        if (!payload || typeof payload !== "object") return;
        if (payload.fading === true) fading = true;
        const found = payload.parts;
        if (!Array.isArray(found)) return;
        for (const f of found.slice(0, 100)) {
          if (!f || typeof f !== "object" || !f.box || !Array.isArray(f.texts)) continue;
          const { x, y, width, height } = f.box;
          if (![x, y, width, height].every((n) => typeof n === "number" && Number.isFinite(n))) continue;
          boxes.push({ x, y, width, height });
          for (const t of f.texts.slice(0, 60)) if (typeof t === "string" && t) texts.push(t.slice(0, 500));
          if (Array.isArray(f.colors))
            for (const c of f.colors.slice(0, 100)) if (typeof c === "string" && colors.size < 500) colors.add(c);
        }
        // Reports repeat every REPORT_EVERY_MS; keep the union small.
        if (boxes.length > 400) boxes.splice(0, boxes.length, ...unionBox(boxes));
        if (texts.length > 4000) texts.splice(0, texts.length, ...new Set(texts));
      },
    );
    await context.addInitScript(`(${pageProbe.toString()})(${JSON.stringify(BINDING)}, ${REPORT_EVERY_MS});`);
  };
  const wrapped = new Proxy(browser, {
    get(target, prop) {
      if (prop === "newContext") return newContext;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    browser: wrapped,
    report: () => mergeVolatility({ texts: [...new Set(texts)], boxes: unionBox(boxes), colors: [...colors], fading }),
  };
}
