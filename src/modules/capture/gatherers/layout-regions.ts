// The page's regions — header, nav, main, aside, hero, sections, footer — from landmarks where the
// page has them, and from position where it uses plain divs: a wide bar at the very top holding
// links is the header; a wide block ending at the page bottom is the footer.

import type { Extraction } from "../model";
import { levelOf } from "../page/headings";
import type { Scan } from "../page/scan";

type Region = Extraction["layout"]["regions"][number];

export interface Regions {
  /** In the order they were found: header, navs, main, asides, hero, sections, footer. */
  regions: Region[];
  header: Element | null;
  hero: Element | null;
  footer: Element | null;
  /** Every section found, top to bottom (the regions list keeps the first 40). */
  sections: Element[];
}

const top = (el: Element, scan: Scan) => el.getBoundingClientRect().top + scan.scrollY;

export function findRegions(scan: Scan): Regions {
  const regions: Region[] = [];
  const taken: Element[] = [];
  const add = (kind: Region["kind"], el: Element | null | undefined) => {
    if (!el || !scan.rendered(el) || taken.includes(el)) return;
    taken.push(el);
    regions.push({ kind, box: scan.clip(scan.box(el)) });
  };
  const blocks = shallow(document.body, 3).filter((el) => !["SCRIPT", "STYLE", "LINK", "META"].includes(el.tagName));
  const header = findHeader(scan, blocks);
  add("header", header);
  for (const n of findNavs(scan, header).slice(0, 3)) add("nav", n);
  const footer = findFooter(scan, blocks);
  const main = document.querySelector("main,[role=main]");
  if (main && scan.rendered(main)) regions.push({ kind: "main", box: scan.clip(scan.box(main)) });
  for (const a of Array.from(document.querySelectorAll("aside,[role=complementary]")).filter(scan.rendered).slice(0, 3)) add("aside", a);
  const hero = findHero(scan, header, main);
  add("hero", hero);
  const sections = findSections(scan, taken, [header, hero, footer], main);
  for (const s of sections.slice(0, 40)) {
    taken.push(s);
    regions.push({ kind: "section", box: scan.clip(scan.box(s)) });
  }
  add("footer", footer);
  return { regions, header, hero, footer, sections };
}

/** Children, grandchildren ... down to `depth` levels, parents before their descendants per level. */
function shallow(root: Element | null, depth: number): Element[] {
  if (!root || depth === 0) return [];
  const kids = Array.from(root.children);
  return [...kids, ...kids.flatMap((k) => shallow(k, depth - 1))];
}

/** The first rendered match that is the page's own, not an article's or a section's. */
function firstTopLevel(scan: Scan, selector: string): Element | undefined {
  return Array.from(document.querySelectorAll(selector))
    .filter(scan.rendered)
    .find((el) => !el.parentElement?.closest("article,aside,section footer,section header"));
}

function findHeader(scan: Scan, blocks: Element[]): Element | null {
  return (
    firstTopLevel(scan, "header,[role=banner]") ??
    blocks.find((el) => {
      const r = el.getBoundingClientRect();
      return (
        top(el, scan) < 24 &&
        r.width >= scan.vw * 0.9 &&
        r.height >= 40 &&
        r.height <= 220 &&
        el.querySelectorAll("a[href]").length >= 2 &&
        scan.rendered(el)
      );
    }) ??
    null
  );
}

/**
 * Rendered navigation landmarks; with no <nav> at all, the smallest block in the header holding 3+
 * visible links. (A <nav> that is hidden, as on most phones, means the menu is collapsed: there is
 * no nav region to report.)
 */
function findNavs(scan: Scan, header: Element | null): Element[] {
  const landmarks = Array.from(document.querySelectorAll("nav,[role=navigation]"));
  const navs = landmarks.filter(scan.rendered);
  if (!landmarks.length && header) {
    const visibleLinks = (el: Element) => Array.from(el.querySelectorAll("a[href]")).filter(scan.rendered).length;
    const group = Array.from(header.querySelectorAll("div,ul"))
      .filter((el) => scan.rendered(el) && visibleLinks(el) >= 3)
      .sort((a, b) => a.getBoundingClientRect().width - b.getBoundingClientRect().width)[0];
    if (group) navs.push(group);
  }
  return navs;
}

function findFooter(scan: Scan, blocks: Element[]): Element | null {
  const landmarks = Array.from(document.querySelectorAll("footer,[role=contentinfo]"))
    .filter(scan.rendered)
    .filter((el) => !el.parentElement?.closest("footer,article,section"));
  const pageBottom = Math.min(scan.maxY, document.documentElement.scrollHeight);
  const footerLike = blocks.filter((el) => {
    const r = el.getBoundingClientRect();
    const bottom = r.bottom + scan.scrollY;
    return (
      Math.abs(bottom - pageBottom) < 48 &&
      r.width >= scan.vw * 0.9 &&
      r.height >= 40 &&
      r.height <= 700 &&
      top(el, scan) > scan.vh &&
      scan.rendered(el)
    );
  });
  return (
    landmarks[landmarks.length - 1] ?? footerLike.find((el) => !footerLike.some((other) => other !== el && other.contains(el))) ?? null
  );
}

/** The hero is the wide block that holds the first big heading near the top of the page. */
function findHero(scan: Scan, header: Element | null, main: Element | null): Element | null {
  const headings = scan.headingElements();
  const headline = headings.find((h) => levelOf(h) === 1) ?? headings[0];
  if (!headline || top(headline, scan) >= scan.vh * 1.2) return null;
  let hero: Element | null = null;
  let el: Element | null = headline.parentElement;
  while (el && el !== document.body && el !== main) {
    const r = el.getBoundingClientRect();
    if (header?.contains(el)) break;
    if (r.width >= scan.vw * 0.8 && r.height >= Math.min(200, scan.vh * 0.25)) hero = el;
    const parent: Element | null = el.parentElement;
    // Stop before a parent that is much taller: that is the page (or a long section), not the hero.
    if (
      !parent ||
      parent === document.body ||
      parent === main ||
      parent.getBoundingClientRect().height > Math.max(r.height * 1.6, scan.vh * 1.5)
    )
      break;
    el = parent;
  }
  return hero;
}

/**
 * Sections: <section>-like elements and the big blocks directly under main (or body), outermost
 * only. Inside something already named is not a section; wrapping a sidebar or a nav is fine,
 * wrapping the header, hero or footer is the page itself.
 */
function findSections(scan: Scan, taken: Element[], majors: (Element | null)[], main: Element | null): Element[] {
  const container = main ?? document.body;
  const candidates = [
    ...Array.from(document.querySelectorAll("section,[role=region],article")),
    ...(container ? Array.from(container.children) : []),
  ].filter((el) => scan.rendered(el) && el.getBoundingClientRect().width >= scan.vw * 0.6 && el.getBoundingClientRect().height >= 100);
  const sections: Element[] = [];
  for (const el of candidates) {
    if (taken.some((t) => t === el || t.contains(el))) continue;
    if (majors.some((major) => major && (major === el || el.contains(major)))) continue;
    if (["HEADER", "FOOTER", "NAV", "SCRIPT"].includes(el.tagName)) continue;
    if (sections.some((s) => s === el || s.contains(el))) continue;
    for (let i = sections.length - 1; i >= 0; i--) if (el.contains(sections[i]!)) sections.splice(i, 1);
    sections.push(el);
  }
  return sections.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
}
