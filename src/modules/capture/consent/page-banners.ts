// Runs inside the captured page (bundled into the page script): finds consent banners on screen,
// whoever made them. A banner is a fixed or sticky box (or a box inside one) whose text speaks of
// cookies, consent or privacy and which offers a button to accept or refuse. It is looked for where
// banners sit — along the viewport's edges and at its centre — by asking what is on top at a grid of
// points, so the cost does not grow with the page. Every autoconsent rule knows its platform's
// markup; this knows none, which is the point: it finds the banners the rules cannot answer.

import type { Box } from "../model";
import { noteBanners } from "./page-masks";

const TOPIC = /\b(cookies?|consent|gdpr|tracking|trackers?|privacy|personal data|datenschutz|einwilligung|rgpd|confidentialit[ée])\b/i;
const ANSWER =
  /\b(accept|agree|allow|got it|ok|okay|reject|decline|deny|refuse|necessary|essential only|akzeptieren|zustimmen|ablehnen|accepter|refuser|aceptar|rechazar|accetta|rifiuta)\b/i;
const BUTTONS = "button,[role=button],a[href],input[type=submit],input[type=button]";
/** Fractions of the viewport probed on each axis: the edges, the quarters and the centre. */
const GRID = [0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.98];
/** A fixed box covering more than this share of the viewport is a backdrop: the banner is a box inside it. */
const BACKDROP = 0.8;
const MAX_TEXT = 4000;

export interface FoundBanner {
  /** Document px (the full-page screenshot's coordinates). */
  box: Box;
  /** Its text's beginning, for the log of what was masked. */
  text: string;
}

const textOf = (el: Element) =>
  ((el as HTMLElement).innerText ?? el.textContent ?? "").slice(0, MAX_TEXT) + " " + (el.shadowRoot?.textContent ?? "").slice(0, MAX_TEXT);

function labelOf(el: Element): string {
  if (el instanceof HTMLInputElement) return el.value;
  return `${(el as HTMLElement).innerText ?? el.textContent ?? ""} ${el.getAttribute("aria-label") ?? ""}`;
}

function offersAnswer(el: Element): boolean {
  const buttons = [...el.querySelectorAll(BUTTONS), ...(el.shadowRoot ? Array.from(el.shadowRoot.querySelectorAll(BUTTONS)) : [])];
  return buttons.some((b) => ANSWER.test(labelOf(b)));
}

const isBanner = (el: Element) => TOPIC.test(textOf(el)) && offersAnswer(el);

function visible(el: Element): boolean {
  const anyEl = el as Element & { checkVisibility?: (o: object) => boolean };
  if (anyEl.checkVisibility && !anyEl.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width >= 40 && r.height >= 20;
}

/** The element's ancestors, from itself up, crossing out of shadow trees. */
function* upwards(el: Element): Generator<Element> {
  for (let n: Element | null = el; n; n = n.parentElement ?? (n.getRootNode() as ShadowRoot).host ?? null) {
    if (n === document.body || n === document.documentElement) return;
    yield n;
  }
}

/**
 * The banner the element at a point belongs to: its nearest fixed or sticky ancestor when that is a
 * banner and not a whole-screen backdrop; inside a backdrop, the largest banner-like box under it.
 * Only boxes on screen for good are read for text: a point on the page's own content costs a walk up.
 */
function bannerAt(hit: Element, viewportArea: number, seen: Map<Element, Element | null>): Element | null {
  const chain: Element[] = [];
  for (const el of upwards(hit)) {
    chain.push(el);
    const position = getComputedStyle(el).position;
    if (position !== "fixed" && position !== "sticky") continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height <= viewportArea * BACKDROP) {
      if (!seen.has(el)) seen.set(el, isBanner(el) ? el : null);
      return seen.get(el)!;
    }
    for (let i = chain.length - 2; i >= 0; i--) if (isBanner(chain[i]!)) return chain[i]!;
    return null;
  }
  return null;
}

/**
 * The box holding a banner and the rest of its platform's machinery (a preference centre, a
 * backdrop): its ancestors up to the body's child, while they hold little text besides the banner's.
 * What changes in there once the banner is answered is the platform closing, not the page.
 */
function platformRoot(banner: Element): Element {
  const own = (banner.textContent ?? "").length;
  let root = banner;
  for (let p = root.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
    if ((p.textContent ?? "").length > own * 3 + 500) break;
    root = p;
  }
  return root;
}

/** Plays the element's finite animations and transitions (its subtree's too) to their end. */
function finishAnimations(el: Element): void {
  for (const animation of el.getAnimations({ subtree: true })) {
    try {
      if (Number.isFinite(animation.effect?.getComputedTiming().endTime)) animation.finish();
    } catch {
      // One that cannot finish stays as it is.
    }
  }
}

/**
 * The consent banners on screen now, in document px; the gatherers leave every banner found out
 * from now on (page-masks.ts). `finish`: their transitions are played to the end first, and only
 * those still visible then are on screen (one closing is not).
 */
export function findConsentBanners(args: { finish?: boolean }): FoundBanner[] {
  const vw = document.documentElement.clientWidth || window.innerWidth;
  const vh = window.innerHeight;
  const found: Element[] = [];
  const seen = new Map<Element, Element | null>();
  for (const fy of GRID) {
    for (const fx of GRID) {
      let hit = document.elementFromPoint(Math.round(fx * vw), Math.round(fy * vh));
      // Banners in open shadow trees: the point's innermost element.
      while (hit?.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(Math.round(fx * vw), Math.round(fy * vh));
        if (!inner || inner === hit) break;
        hit = inner;
      }
      if (!hit || found.some((f) => f.contains(hit))) continue;
      const banner = bannerAt(hit, vw * vh, seen);
      if (!banner || !visible(banner)) continue;
      // One banner per box: a larger one found later replaces the part of it found first.
      for (let i = found.length - 1; i >= 0; i--) if (banner.contains(found[i]!)) found.splice(i, 1);
      if (!found.some((f) => f.contains(banner))) found.push(banner);
    }
  }
  noteBanners(found.map(platformRoot));
  if (args.finish) {
    for (const el of found) finishAnimations(el);
    for (let i = found.length - 1; i >= 0; i--) if (!visible(found[i]!)) found.splice(i, 1);
  }
  return found.map((el) => {
    const r = el.getBoundingClientRect();
    const x = Math.max(0, Math.floor(r.left + window.scrollX));
    const y = Math.max(0, Math.floor(r.top + window.scrollY));
    return {
      box: { x, y, width: Math.ceil(r.right + window.scrollX) - x, height: Math.ceil(r.bottom + window.scrollY) - y },
      text: textOf(el).replace(/\s+/g, " ").trim().slice(0, 80),
    };
  });
}
