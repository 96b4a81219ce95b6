// Functions that run INSIDE the captured page through page.evaluate. Playwright sends them as
// source text, so each must be self-contained: no imports, no closures over module values, and
// only syntax the browser runs as-is. Types are imported for checking only.

import type { Box, Extraction, PaletteEntry } from "./model";

/** The parts of an Extraction that only the DOM can tell. */
export type DomMeasurement = Pick<
  Extraction,
  "title" | "metaDescription" | "pageHeight" | "typography" | "layout" | "elements" | "copy" | "accessibility"
> & { palette: Pick<Extraction["palette"], "text" | "background" | "buttons"> };

export type Vitals = Pick<
  Extraction["timing"],
  "ttfbMs" | "fcpMs" | "lcpMs" | "cls" | "domContentLoadedMs" | "loadMs"
>;

export type ResourceTotals = Pick<Extraction["timing"], "bytes" | "requests" | "largestResource">;

/**
 * Web vitals from buffered performance entries. Read before we scroll, so our own scrolling can't
 * move them, but after the first contentful paint: a fast page fires `load` before it has painted,
 * and paint entries arrive a frame or two after the paint itself. A page that paints nothing
 * contentful waits `paintWaitMs` and reports no FCP/LCP.
 */
export async function measureVitals(args: { paintWaitMs: number }): Promise<Vitals> {
  const ms = (v: number | undefined | null) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : null);
  const painted = () => performance.getEntriesByType("paint").some((p) => p.name === "first-contentful-paint");
  const until = performance.now() + args.paintWaitMs;
  while (!painted() && performance.now() < until) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 50);
      requestAnimationFrame(() => {
        clearTimeout(timer);
        setTimeout(resolve, 0);
      });
    });
  }
  const observed = (type: string): Promise<PerformanceEntry[]> =>
    new Promise((resolve) => {
      try {
        if (!PerformanceObserver.supportedEntryTypes.includes(type)) return resolve([]);
        const seen: PerformanceEntry[] = [];
        const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()));
        observer.observe({ type, buffered: true });
        // Buffered entries are queued at once (takeRecords sees them); one more frame lets a paint
        // that is due land too. The timer covers a page whose frames stall.
        const done = () => {
          clearTimeout(timer);
          seen.push(...observer.takeRecords());
          observer.disconnect();
          resolve(seen);
        };
        const timer = setTimeout(done, 50);
        requestAnimationFrame(() => setTimeout(done, 0));
      } catch {
        resolve([]);
      }
    });

  const [paints, lcps, shifts] = await Promise.all([
    observed("paint"),
    observed("largest-contentful-paint"),
    observed("layout-shift"),
  ]);
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  const fcp = paints.find((p) => p.name === "first-contentful-paint");
  const lcp = lcps[lcps.length - 1];

  // CLS as defined since 2021: the largest session window (gaps < 1 s, window <= 5 s) of unexpected shifts.
  let cls: number | null = PerformanceObserver.supportedEntryTypes.includes("layout-shift") ? 0 : null;
  let windowValue = 0;
  let windowStart = -Infinity;
  let previous = -Infinity;
  for (const entry of shifts as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
    if (entry.hadRecentInput) continue;
    if (entry.startTime - previous > 1000 || entry.startTime - windowStart > 5000) {
      windowValue = 0;
      windowStart = entry.startTime;
    }
    windowValue += entry.value;
    previous = entry.startTime;
    cls = Math.max(cls ?? 0, windowValue);
  }

  return {
    ttfbMs: nav ? ms(nav.responseStart - nav.startTime) : null,
    fcpMs: fcp ? ms(fcp.startTime) : null,
    lcpMs: lcp ? ms(lcp.startTime) : null,
    cls: cls === null ? null : Math.round(cls * 10000) / 10000,
    domContentLoadedMs: nav ? ms(nav.domContentLoadedEventEnd - nav.startTime) : null,
    loadMs: nav ? ms(nav.loadEventEnd - nav.startTime) : null,
  };
}

/**
 * Bytes and requests from resource timing: the fallback when the browser's network log is not
 * available. Cross-origin responses without Timing-Allow-Origin report 0 bytes here.
 */
export function measureResources(): ResourceTotals {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
  const size = (e: PerformanceResourceTiming) => e.transferSize || e.encodedBodySize || 0;
  let bytes = nav ? size(nav) : 0;
  let largest: ResourceTotals["largestResource"] = null;
  for (const r of resources) {
    const b = size(r);
    bytes += b;
    if (!largest || b > largest.bytes) largest = { url: r.name, bytes: b, type: r.initiatorType };
  }
  return { bytes, requests: resources.length + (nav ? 1 : 0), largestResource: largest && largest.bytes > 0 ? largest : null };
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
  // Whole viewports: every band of the page is in view at one step, which is all an intersection
  // observer needs (it ignores what a sticky header covers).
  const step = Math.max(200, window.innerHeight);
  let y = 0;
  let steps = 0;
  while (steps < 100) {
    const bottom = Math.min(document.documentElement.scrollHeight, args.maxY);
    if (y + window.innerHeight >= bottom) break;
    y = Math.min(y + step, bottom);
    window.scrollTo(0, y);
    steps++;
    await rendered();
  }
  const reached = Math.min(document.documentElement.scrollHeight, args.maxY, y + window.innerHeight);
  window.scrollTo(0, 0);
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
  return Promise.race([
    document.fonts.ready.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs)),
  ]);
}

/** Everything about the page the DOM can tell: colours, type, layout, elements, copy, accessibility. */
export function measureDom(args: { maxY: number; viewportWidth: number; viewportHeight: number }): DomMeasurement {
  const { maxY, viewportWidth: vw, viewportHeight: vh } = args;
  const scrollX = window.scrollX;
  const scrollY = window.scrollY;

  // ---- colour helpers (any CSS colour syntax -> sRGB bytes via a 1px canvas) ----
  type Rgba = [number, number, number, number];
  const canvas = document.createElement("canvas");
  canvas.width = 1;
  canvas.height = 1;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const colorCache = new Map<string, Rgba>();
  const toRgba = (css: string): Rgba => {
    const hit = colorCache.get(css);
    if (hit) return hit;
    let out: Rgba = [0, 0, 0, 0];
    const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(css);
    if (m) {
      const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
      out = [Math.round(+m[1]!), Math.round(+m[2]!), Math.round(+m[3]!), alpha];
    } else if (ctx && css && css !== "transparent") {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = "#000";
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const d = ctx.getImageData(0, 0, 1, 1).data;
      out = [d[0]!, d[1]!, d[2]!, d[3]! / 255];
    }
    colorCache.set(css, out);
    return out;
  };
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a <= 0) return [0, 0, 0, 0];
    const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a;
    return [mix(0), mix(1), mix(2), a];
  };
  const hex = (c: Rgba) =>
    "#" + [c[0], c[1], c[2]].map((v) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0")).join("");
  const luminance = (c: Rgba) => {
    const lin = (v: number) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  };
  const contrast = (a: Rgba, b: Rgba) => {
    const la = luminance(a);
    const lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  };
  const WHITE: Rgba = [255, 255, 255, 1];

  // ---- geometry and visibility ----
  const styleOf = (el: Element) => getComputedStyle(el);
  const boxOf = (el: Element): Box => {
    const r = el.getBoundingClientRect();
    return { x: Math.round(r.left + scrollX), y: Math.round(r.top + scrollY), width: Math.round(r.width), height: Math.round(r.height) };
  };
  const clipBox = (b: Box): Box => ({ ...b, height: Math.max(0, Math.min(b.height, maxY - b.y)) });
  const isRendered = (el: Element): boolean => {
    const anyEl = el as Element & { checkVisibility?: (o: object) => boolean };
    if (anyEl.checkVisibility && !anyEl.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    // Off-canvas drawers and skip links sit outside the page horizontally.
    if (r.right + scrollX <= 0 || r.left + scrollX >= Math.max(vw, document.documentElement.scrollWidth)) return false;
    return r.top + scrollY < maxY;
  };
  const aboveFold = (b: Box) => b.height > 0 && b.y + Math.min(b.height, vh) / 2 < vh;
  const clean = (s: string, max: number) => s.replace(/\s+/g, " ").trim().slice(0, max);

  // Effective background behind an element: its own background composited over its ancestors',
  // down to the canvas. `known` is false when an image or gradient sits in between.
  const bgCache = new Map<Element, { color: Rgba; known: boolean }>();
  const rootCanvas = (): Rgba => {
    const html = toRgba(styleOf(document.documentElement).backgroundColor);
    if (html[3] > 0) return over(html, WHITE);
    const body = document.body ? toRgba(styleOf(document.body).backgroundColor) : ([0, 0, 0, 0] as Rgba);
    return over(body, WHITE);
  };
  const canvasColor = rootCanvas();
  const effectiveBg = (el: Element | null): { color: Rgba; known: boolean } => {
    if (!el || el === document.documentElement) return { color: canvasColor, known: true };
    const cached = bgCache.get(el);
    if (cached) return cached;
    const s = styleOf(el);
    const own = toRgba(s.backgroundColor);
    const hasImage = s.backgroundImage !== "none";
    let result: { color: Rgba; known: boolean };
    if (own[3] >= 0.999 && !hasImage) result = { color: own, known: true };
    else {
      const below = effectiveBg(el.parentElement);
      result = { color: own[3] > 0 ? over(own, below.color) : below.color, known: below.known && !hasImage };
    }
    bgCache.set(el, result);
    return result;
  };

  // Weighted histogram of colours -> palette entries (shares sum to 1).
  const tally = (m: Map<string, number>, key: string, w: number) => m.set(key, (m.get(key) ?? 0) + w);
  const toShares = (m: Map<string, number>, limit: number): PaletteEntry[] => {
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    if (total <= 0) return [];
    return [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([key, w]) => ({ hex: key, share: Math.round((w / total) * 10000) / 10000 }));
  };

  // ---- text runs: one per element with its own visible text ----
  interface Run {
    el: Element;
    text: string;
    chars: number;
    area: number;
    top: number;
    family: string;
    sizePx: number;
    weight: number;
    lineHeightPx: number;
    fg: Rgba;
    bg: { color: Rgba; known: boolean };
  }
  const runs: Run[] = [];
  const runByElement = new Map<Element, Run>();
  const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TEXTAREA", "OPTION", "SVG"]);
  let node: Node | null;
  let visited = 0;
  while ((node = walker.nextNode()) && visited < 20000) {
    visited++;
    const text = node.nodeValue ?? "";
    if (!text.trim()) continue;
    const el = node.parentElement;
    if (!el || SKIP.has(el.tagName.toUpperCase())) continue;
    range.selectNodeContents(node);
    let area = 0;
    let top = Infinity;
    for (const r of Array.from(range.getClientRects())) {
      if (r.width < 1 || r.height < 1) continue;
      const docTop = r.top + scrollY;
      if (docTop >= maxY) continue;
      area += r.width * r.height;
      top = Math.min(top, docTop);
    }
    if (area <= 0) continue;
    const existing = runByElement.get(el);
    if (existing) {
      existing.text += " " + text;
      existing.chars += text.trim().length;
      existing.area += area;
      existing.top = Math.min(existing.top, top);
      continue;
    }
    const s = styleOf(el);
    if (s.visibility === "hidden" || parseFloat(s.opacity) === 0) continue;
    const sizePx = parseFloat(s.fontSize) || 16;
    let lineHeightPx = parseFloat(s.lineHeight);
    if (!Number.isFinite(lineHeightPx)) {
      // "normal": measure the rendered line box.
      const lines = Array.from(range.getClientRects()).filter((r) => r.height > 0);
      lineHeightPx = lines.length ? lines.reduce((a, r) => a + r.height, 0) / lines.length : sizePx * 1.2;
    }
    const color = toRgba(s.color);
    const bg = effectiveBg(el);
    const run: Run = {
      el,
      text,
      chars: text.trim().length,
      area,
      top,
      family: (s.fontFamily.split(",")[0] ?? "").replace(/["']/g, "").trim() || "serif",
      sizePx: Math.round(sizePx * 10) / 10,
      weight: parseInt(s.fontWeight, 10) || 400,
      lineHeightPx: Math.round(lineHeightPx * 10) / 10,
      fg: over([color[0], color[1], color[2], color[3] * (parseFloat(s.opacity) || 1)], bg.color),
      bg,
    };
    runs.push(run);
    runByElement.set(el, run);
  }
  runs.sort((a, b) => a.top - b.top);

  const textColors = new Map<string, number>();
  const families = new Map<string, number>();
  const sizes = new Map<number, number>();
  const weights = new Map<number, number>();
  for (const r of runs) {
    tally(textColors, hex(r.fg), r.area);
    families.set(r.family, (families.get(r.family) ?? 0) + r.chars);
    sizes.set(r.sizePx, (sizes.get(r.sizePx) ?? 0) + r.chars);
    weights.set(r.weight, (weights.get(r.weight) ?? 0) + r.chars);
  }
  const totalChars = runs.reduce((a, r) => a + r.chars, 0) || 1;
  const share = (n: number) => Math.round((n / totalChars) * 10000) / 10000;

  // ---- headings ----
  const headingEls = Array.from(document.querySelectorAll("h1,h2,h3,h4,h5,h6,[role=heading][aria-level]")).filter(isRendered);
  const levelOf = (el: Element) =>
    /^H[1-6]$/.test(el.tagName) ? Number(el.tagName[1]) : Math.min(6, Math.max(1, Number(el.getAttribute("aria-level")) || 2));
  const headings = headingEls.slice(0, 80).map((el) => {
    const box = boxOf(el);
    return { level: levelOf(el), text: clean((el as HTMLElement).innerText || el.textContent || "", 200), box: clipBox(box), aboveFold: aboveFold(box) };
  }).filter((h) => h.text);
  const headingTypography: DomMeasurement["typography"]["headings"] = [];
  for (let level = 1; level <= 6; level++) {
    const el = headingEls.find((h) => levelOf(h) === level);
    if (!el) continue;
    const s = styleOf(el);
    const sizePx = parseFloat(s.fontSize) || 16;
    const lh = parseFloat(s.lineHeight);
    headingTypography.push({
      level,
      family: (s.fontFamily.split(",")[0] ?? "").replace(/["']/g, "").trim(),
      sizePx: Math.round(sizePx * 10) / 10,
      weight: parseInt(s.fontWeight, 10) || 400,
      lineHeightPx: Math.round((Number.isFinite(lh) ? lh : el.getBoundingClientRect().height / Math.max(1, el.getClientRects().length)) * 10) / 10,
    });
  }

  // ---- body text style: the most-used style among paragraph-like text ----
  const inHeading = (el: Element) => !!el.closest("h1,h2,h3,h4,h5,h6,[role=heading],button,a,nav,label,[role=button]");
  const bodyStyles = new Map<string, { chars: number; run: Run }>();
  for (const r of runs) {
    if (inHeading(r.el) || r.sizePx < 11 || r.sizePx > 26) continue;
    const key = `${r.family}|${r.sizePx}|${r.weight}|${r.lineHeightPx}`;
    const entry = bodyStyles.get(key);
    if (entry) entry.chars += r.chars;
    else bodyStyles.set(key, { chars: r.chars, run: r });
  }
  const bodyRun = [...bodyStyles.values()].sort((a, b) => b.chars - a.chars)[0]?.run ?? null;

  // ---- calls to action ----
  const isButtonLike = (el: Element, s: CSSStyleDeclaration) => {
    const tag = el.tagName;
    if (tag === "BUTTON" || el.getAttribute("role") === "button") return true;
    if (tag === "INPUT") return ["submit", "button"].includes((el as HTMLInputElement).type);
    if (tag !== "A") return false;
    const bg = toRgba(s.backgroundColor);
    const hasFill = bg[3] > 0.3 && hex(over(bg, WHITE)) !== hex(effectiveBg(el.parentElement).color);
    const hasBorder = parseFloat(s.borderTopWidth) >= 1 && toRgba(s.borderTopColor)[3] > 0.3 && parseFloat(s.paddingLeft) >= 8;
    const r = el.getBoundingClientRect();
    return (hasFill || hasBorder) && r.height >= 24 && r.height <= 120 && r.width <= 600;
  };
  const ctaEls = Array.from(document.querySelectorAll("a[href],button,[role=button],input[type=submit],input[type=button]"))
    .filter((el) => isRendered(el) && isButtonLike(el, styleOf(el)))
    .filter((el, _, list) => !list.some((other) => other !== el && other.contains(el)));
  const buttonColors = new Map<string, number>();
  const radii: number[] = [];
  // Icon-only controls (menu toggles, carousel arrows) are not calls to action.
  const labelOf = (el: Element) => clean(el.tagName === "INPUT" ? (el as HTMLInputElement).value : (el as HTMLElement).innerText || "", 80);
  const ctas = ctaEls.filter((el) => /[\p{L}\p{N}]/u.test(labelOf(el))).slice(0, 60).map((el) => {
    const s = styleOf(el);
    const box = boxOf(el);
    const bgInfo = effectiveBg(el);
    const fg = over(toRgba(s.color), bgInfo.color);
    tally(buttonColors, hex(bgInfo.color), box.width * box.height);
    radii.push(parseFloat(s.borderTopLeftRadius) || 0);
    return {
      text: labelOf(el),
      box: clipBox(box),
      aboveFold: aboveFold(box),
      href: el.tagName === "A" ? (el as HTMLAnchorElement).href : null,
      bg: hex(bgInfo.color),
      fg: hex(fg),
    };
  });

  // ---- links, forms, inputs, images ----
  const links = Array.from(document.querySelectorAll("a[href]")).filter(isRendered);
  const CONTROL = "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]),select,textarea";
  const controls = Array.from(document.querySelectorAll(CONTROL)).filter(isRendered);
  const forms = Array.from(document.querySelectorAll("form")).filter(isRendered).slice(0, 20).map((f) => {
    const box = boxOf(f);
    return { box: clipBox(box), inputs: Array.from(f.querySelectorAll(CONTROL)).filter(isRendered).length, aboveFold: aboveFold(box) };
  });
  const imageEls = Array.from(document.querySelectorAll("img,svg,[role=img],video,canvas,picture > img")).filter((el) => {
    if (el.tagName.toLowerCase() === "svg" && el.parentElement?.closest("svg")) return false;
    const r = el.getBoundingClientRect();
    return isRendered(el) && r.width >= 16 && r.height >= 16;
  });
  const imagesAboveFold = imageEls.filter((el) => aboveFold(boxOf(el))).length;

  // ---- accessibility quick checks ----
  const imagesWithoutAlt = Array.from(document.querySelectorAll("img")).filter((img) => {
    if (img.hasAttribute("alt")) return false;
    if (img.getAttribute("aria-hidden") === "true" || ["presentation", "none"].includes(img.getAttribute("role") ?? "")) return false;
    if ((img.getAttribute("aria-label") ?? "").trim() || (img.getAttribute("aria-labelledby") ?? "").trim() || (img.getAttribute("title") ?? "").trim()) return false;
    return isRendered(img);
  }).length;
  const labelText = (ids: string) =>
    ids.split(/\s+/).map((id) => (id ? document.getElementById(id)?.textContent ?? "" : "")).join(" ").trim();
  // A placeholder is not a label: it disappears on input and is not announced reliably.
  const inputsWithoutLabel = controls.filter((el) => {
    const c = el as HTMLInputElement;
    if ((c.getAttribute("aria-label") ?? "").trim()) return false;
    if (labelText(c.getAttribute("aria-labelledby") ?? "")) return false;
    if ((c.getAttribute("title") ?? "").trim()) return false;
    if (Array.from(c.labels ?? []).some((l) => (l.textContent ?? "").trim())) return false;
    return true;
  }).length;

  const lowContrastAll: Extraction["accessibility"]["lowContrast"] = [];
  for (const r of runs) {
    if (!r.bg.known || r.chars < 2) continue;
    const ratio = contrast(r.fg, r.bg.color);
    const large = r.sizePx >= 24 || (r.sizePx >= 18.66 && r.weight >= 700);
    const required = large ? 3 : 4.5;
    if (ratio + 1e-9 < required) {
      lowContrastAll.push({ text: clean(r.text, 80), ratio: Math.round(ratio * 100) / 100, required, fg: hex(r.fg), bg: hex(r.bg.color) });
    }
  }
  const seenContrast = new Set<string>();
  const lowContrast = lowContrastAll
    .sort((a, b) => a.ratio - b.ratio)
    .filter((c) => {
      const key = `${c.text}|${c.fg}|${c.bg}`;
      if (seenContrast.has(key)) return false;
      seenContrast.add(key);
      return true;
    })
    .slice(0, 40);
  const bodyContrast = bodyRun && bodyRun.bg.known ? Math.round(contrast(bodyRun.fg, bodyRun.bg.color) * 100) / 100 : null;

  // ---- backgrounds weighted by the area each one actually paints ----
  const bgEls: { el: Element; area: number; color: Rgba }[] = [];
  const pageArea = Math.max(vw, document.documentElement.scrollWidth) * Math.min(maxY, document.documentElement.scrollHeight);
  const areaOf = (el: Element) => {
    const r = el.getBoundingClientRect();
    const top = Math.max(0, r.top + scrollY);
    const bottom = Math.min(maxY, r.bottom + scrollY);
    return Math.max(0, r.width) * Math.max(0, bottom - top);
  };
  const all = Array.from((document.body ?? document.documentElement).querySelectorAll("*")).slice(0, 15000);
  if (document.body) all.unshift(document.body);
  for (const el of all) {
    if (el === document.body && toRgba(styleOf(document.documentElement).backgroundColor)[3] === 0) continue; // body paints the canvas
    const c = toRgba(styleOf(el).backgroundColor);
    if (c[3] < 0.5) continue;
    const area = areaOf(el);
    if (area < 64 || !isRendered(el)) continue;
    bgEls.push({ el, area, color: over(c, effectiveBg(el.parentElement).color) });
  }
  const painted = new Map<Element, number>(bgEls.map((b) => [b.el, b.area]));
  let canvasArea = pageArea;
  for (const b of bgEls) {
    let parent = b.el.parentElement;
    while (parent && !painted.has(parent)) parent = parent.parentElement;
    if (parent) painted.set(parent, (painted.get(parent) ?? 0) - b.area);
    else canvasArea -= b.area;
  }
  const bgColors = new Map<string, number>();
  tally(bgColors, hex(canvasColor), Math.max(0, canvasArea));
  for (const b of bgEls) tally(bgColors, hex(b.color), Math.max(0, painted.get(b.el) ?? 0));

  // ---- regions ----
  const regions: DomMeasurement["layout"]["regions"] = [];
  const taken: Element[] = [];
  const wide = (el: Element, fraction: number) => el.getBoundingClientRect().width >= vw * fraction;
  const addRegion = (kind: DomMeasurement["layout"]["regions"][number]["kind"], el: Element | null | undefined) => {
    if (!el || !isRendered(el) || taken.includes(el)) return;
    taken.push(el);
    regions.push({ kind, box: clipBox(boxOf(el)) });
  };
  const firstTopLevel = (selector: string) =>
    Array.from(document.querySelectorAll(selector)).filter(isRendered).find((el) => !el.parentElement?.closest("article,aside,section footer,section header"));
  // Many sites use plain divs, so landmarks fall back to position: a wide bar at the very top
  // holding links is the header; a wide block ending at the page bottom is the footer.
  const pageBottom = Math.min(maxY, document.documentElement.scrollHeight);
  const shallow = (root: Element | null, depth: number): Element[] => {
    if (!root || depth === 0) return [];
    const kids = Array.from(root.children);
    return [...kids, ...kids.flatMap((k) => shallow(k, depth - 1))];
  };
  const blocks = shallow(document.body, 3).filter((el) => !["SCRIPT", "STYLE", "LINK", "META"].includes(el.tagName));
  const header =
    firstTopLevel("header,[role=banner]") ??
    blocks.find((el) => {
      const r = el.getBoundingClientRect();
      return r.top + scrollY < 24 && r.width >= vw * 0.9 && r.height >= 40 && r.height <= 220 && el.querySelectorAll("a[href]").length >= 2 && isRendered(el);
    });
  addRegion("header", header);
  const navLandmarks = Array.from(document.querySelectorAll("nav,[role=navigation]"));
  const navs = navLandmarks.filter(isRendered);
  // No <nav> at all: the smallest block in the header holding 3+ visible links. (A <nav> that is
  // hidden, as on most phones, means the menu is collapsed: there is no nav region to report.)
  if (!navLandmarks.length && header) {
    const visibleLinks = (el: Element) => Array.from(el.querySelectorAll("a[href]")).filter(isRendered).length;
    const group = Array.from(header.querySelectorAll("div,ul")).filter((el) => isRendered(el) && visibleLinks(el) >= 3)
      .sort((a, b) => a.getBoundingClientRect().width - b.getBoundingClientRect().width)[0];
    if (group) navs.push(group);
  }
  for (const n of navs.slice(0, 3)) addRegion("nav", n);
  const footerEls = Array.from(document.querySelectorAll("footer,[role=contentinfo]")).filter(isRendered).filter((el) => !el.parentElement?.closest("footer,article,section"));
  const footerLike = blocks.filter((el) => {
    const r = el.getBoundingClientRect();
    const bottom = r.bottom + scrollY;
    return Math.abs(bottom - pageBottom) < 48 && r.width >= vw * 0.9 && r.height >= 40 && r.height <= 700 && r.top + scrollY > vh && isRendered(el);
  });
  const footer =
    footerEls[footerEls.length - 1] ?? footerLike.find((el) => !footerLike.some((other) => other !== el && other.contains(el)));
  const mainEl = document.querySelector("main,[role=main]");
  if (mainEl && isRendered(mainEl)) regions.push({ kind: "main", box: clipBox(boxOf(mainEl)) });
  for (const a of Array.from(document.querySelectorAll("aside,[role=complementary]")).filter(isRendered).slice(0, 3)) addRegion("aside", a);

  // The hero is the wide block that holds the first big heading near the top of the page.
  const headline = headingEls.find((h) => levelOf(h) === 1) ?? headingEls[0];
  let hero: Element | null = null;
  if (headline && headline.getBoundingClientRect().top + scrollY < vh * 1.2) {
    let el: Element | null = headline.parentElement;
    while (el && el !== document.body && el !== mainEl) {
      const r = el.getBoundingClientRect();
      if (header?.contains(el) || el === header) break;
      if (r.width >= vw * 0.8 && r.height >= Math.min(200, vh * 0.25)) hero = el;
      const parent: Element | null = el.parentElement;
      if (!parent || parent === document.body || parent === mainEl || parent.getBoundingClientRect().height > Math.max(r.height * 1.6, vh * 1.5)) break;
      el = parent;
    }
  }
  addRegion("hero", hero);

  // Sections: <section> elements and the big blocks directly under main (or body), outermost only.
  const container = mainEl ?? document.body;
  const candidates = [
    ...Array.from(document.querySelectorAll("section,[role=region],article")),
    ...(container ? Array.from(container.children) : []),
  ].filter((el) => isRendered(el) && wide(el, 0.6) && el.getBoundingClientRect().height >= 100);
  const sectionEls: Element[] = [];
  for (const el of candidates) {
    // Inside something already named is not a section; wrapping a sidebar or a nav is fine,
    // wrapping the header, hero or footer is the page itself.
    if (taken.some((t) => t === el || t.contains(el))) continue;
    if ([header, hero, footer].some((major) => major && el.contains(major))) continue;
    if (el === footer || el === header || ["HEADER", "FOOTER", "NAV", "SCRIPT"].includes(el.tagName)) continue;
    if (sectionEls.some((s) => s === el || s.contains(el))) continue;
    for (let i = sectionEls.length - 1; i >= 0; i--) if (el.contains(sectionEls[i]!)) sectionEls.splice(i, 1);
    sectionEls.push(el);
  }
  sectionEls.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
  for (const s of sectionEls.slice(0, 40)) {
    taken.push(s);
    regions.push({ kind: "section", box: clipBox(boxOf(s)) });
  }
  addRegion("footer", footer);

  // Columns: per content block, the most boxes laid side by side in one row.
  const columnsOf = (root: Element): number => {
    let best = 1;
    const queue: { el: Element; depth: number }[] = [{ el: root, depth: 0 }];
    const rootWidth = root.getBoundingClientRect().width;
    while (queue.length) {
      const { el, depth } = queue.shift()!;
      const kids = Array.from(el.children).filter((k) => {
        const r = k.getBoundingClientRect();
        return r.width >= Math.max(80, rootWidth * 0.12) && r.height >= 40 && isRendered(k);
      });
      const rows = new Map<number, DOMRect[]>();
      for (const k of kids) {
        const r = k.getBoundingClientRect();
        const key = Math.round(r.top / 12);
        rows.set(key, [...(rows.get(key) ?? []), r]);
      }
      for (const row of rows.values()) {
        const sorted = row.sort((a, b) => a.left - b.left);
        const disjoint = sorted.every((r, i) => i === 0 || r.left >= sorted[i - 1]!.right - 2);
        if (disjoint) best = Math.max(best, row.length);
      }
      if (depth < 4) for (const k of Array.from(el.children)) queue.push({ el: k, depth: depth + 1 });
    }
    return Math.min(best, 6);
  };
  const contentBlocks = [...(hero ? [hero] : []), ...sectionEls];
  const columnCounts = contentBlocks.map(columnsOf);
  const counts = new Map<number, number>();
  for (const c of columnCounts) counts.set(c, (counts.get(c) ?? 0) + 1);
  const columns = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 1;

  // Cards: filled or bordered boxes of card size; their radius joins the buttons' in the token.
  for (const el of all.slice(0, 8000)) {
    const r = el.getBoundingClientRect();
    if (r.width < 120 || r.width > vw * 0.7 || r.height < 80 || r.height > 900) continue;
    const s = styleOf(el);
    const filled = toRgba(s.backgroundColor)[3] > 0.5 && hex(effectiveBg(el).color) !== hex(effectiveBg(el.parentElement).color);
    const bordered = parseFloat(s.borderTopWidth) >= 1 && toRgba(s.borderTopColor)[3] > 0.2;
    if ((filled || bordered || s.boxShadow !== "none") && isRendered(el)) radii.push(parseFloat(s.borderTopLeftRadius) || 0);
  }
  const median = (xs: number[]) => {
    if (!xs.length) return 0;
    const s = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  };

  // Spacing: the whitespace between the last content of one block and the first content of the next.
  const contentBounds = (block: Element) => {
    let top = Infinity;
    let bottom = -Infinity;
    for (const r of runs) if (block.contains(r.el)) {
      const rect = r.el.getBoundingClientRect();
      top = Math.min(top, rect.top + scrollY);
      bottom = Math.max(bottom, rect.bottom + scrollY);
    }
    for (const el of Array.from(block.querySelectorAll("img,svg,button,input,video,canvas"))) {
      if (!isRendered(el)) continue;
      const rect = el.getBoundingClientRect();
      top = Math.min(top, rect.top + scrollY);
      bottom = Math.max(bottom, rect.bottom + scrollY);
    }
    return top === Infinity ? null : { top, bottom };
  };
  const ordered = [header, hero, ...sectionEls, footer].filter((x): x is Element => !!x);
  ordered.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
  const gaps: number[] = [];
  let previous: { top: number; bottom: number } | null = null;
  for (const block of ordered) {
    const b = contentBounds(block);
    if (!b) continue;
    // A gap taller than the screen is a layout quirk (an empty block), not a spacing choice.
    if (previous && b.top > previous.bottom && b.top - previous.bottom < vh) gaps.push(b.top - previous.bottom);
    previous = b;
  }

  // ---- copy ----
  const textBlocks: string[] = [];
  let length = 0;
  for (const r of runs) {
    const t = clean(r.text, 2000);
    if (!t || length > 40000) continue;
    textBlocks.push(t);
    length += t.length + 1;
  }
  const visibleText = textBlocks.join("\n");
  const words = visibleText.match(/[A-Za-zÀ-ÿ0-9'’-]+/g) ?? [];
  const alphaWords = words.filter((w) => /[A-Za-zÀ-ÿ]/.test(w));
  const syllables = (word: string) => {
    const w = word.toLowerCase().replace(/[^a-z]/g, "");
    if (!w) return 0;
    if (w.length <= 3) return 1;
    const trimmed = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, "").replace(/^y/, "");
    const groups = trimmed.match(/[aeiouy]{1,2}/g);
    return Math.max(1, groups ? groups.length : 1);
  };
  // Each block (heading, button, paragraph) ends a sentence even without a full stop.
  const sentences = textBlocks.reduce((n, t) => n + Math.max(1, (t.match(/[.!?]+(\s|$)/g) ?? []).length), 0);
  let readability = 0;
  if (alphaWords.length > 0 && sentences > 0) {
    const syl = alphaWords.reduce((a, w) => a + syllables(w), 0);
    const flesch = 206.835 - 1.015 * (alphaWords.length / sentences) - 84.6 * (syl / alphaWords.length);
    readability = Math.round(Math.max(0, Math.min(100, flesch)) * 10) / 10;
  }
  const h1 = headings.find((h) => h.level === 1) ?? headings[0];
  const biggestAboveFold = runs.filter((r) => r.top < vh).sort((a, b) => b.sizePx - a.sizePx)[0];
  const headlineText = h1?.text || (biggestAboveFold ? clean(biggestAboveFold.text, 200) : "");

  const meta = document.querySelector('meta[name="description" i]') ?? document.querySelector('meta[property="og:description" i]');
  const pageHeight = Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0);

  return {
    title: clean(document.title, 300),
    metaDescription: clean(meta?.getAttribute("content") ?? "", 500),
    pageHeight,
    palette: { text: toShares(textColors, 8), background: toShares(bgColors, 8), buttons: toShares(buttonColors, 6) },
    typography: {
      families: [...families.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([family, n]) => ({ family, share: share(n) })),
      sizeScale: [...sizes.entries()].sort((a, b) => b[0] - a[0]).slice(0, 16).map(([px, n]) => ({ px, share: share(n) })),
      weights: [...weights.entries()].sort((a, b) => b[1] - a[1]).map(([weight, n]) => ({ weight, share: share(n) })),
      headings: headingTypography,
      body: bodyRun ? { family: bodyRun.family, sizePx: bodyRun.sizePx, weight: bodyRun.weight, lineHeightPx: bodyRun.lineHeightPx } : null,
    },
    layout: { regions, columns, radiusPx: Math.round(median(radii)), spacingPx: Math.round(median(gaps)) },
    elements: {
      ctas,
      links: links.length,
      linksAboveFold: links.filter((l) => aboveFold(boxOf(l))).length,
      forms,
      inputs: controls.length,
      images: imageEls.length,
      imagesAboveFold,
      headings,
    },
    copy: { headline: headlineText, visibleText, wordCount: words.length, readability },
    accessibility: { lowContrast, bodyContrast, imagesWithoutAlt, inputsWithoutLabel },
  };
}
