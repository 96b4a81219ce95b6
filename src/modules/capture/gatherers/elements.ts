// Elements gatherer: what a visitor can act on or look at — calls to action, links, forms and
// their inputs, images — and the heading outline, each with whether it shows above the fold.

import type { Extraction } from "../model";
import { CONTROL_SELECTOR, type Scan } from "../page/scan";

export type ElementsMeasurement = Extraction["elements"];

const MEDIA = "img,svg,[role=img],video,canvas,picture > img";

export function gatherElements(scan: Scan): ElementsMeasurement {
  const links = Array.from(document.querySelectorAll("a[href]")).filter(scan.rendered);
  const forms = Array.from(document.querySelectorAll("form"))
    .filter(scan.rendered)
    .slice(0, 20)
    .map((f) => {
      const box = scan.box(f);
      return {
        box: scan.clip(box),
        inputs: Array.from(f.querySelectorAll(CONTROL_SELECTOR)).filter(scan.rendered).length,
        aboveFold: scan.aboveFold(box),
      };
    });
  const images = Array.from(document.querySelectorAll(MEDIA)).filter((el) => {
    if (el.tagName.toLowerCase() === "svg" && el.parentElement?.closest("svg")) return false; // part of a bigger drawing
    const r = el.getBoundingClientRect();
    return scan.rendered(el) && r.width >= 16 && r.height >= 16;
  });
  return {
    ctas: scan.ctas().map(({ text, box, aboveFold, href, bg, fg }) => ({ text, box, aboveFold, href, bg, fg })),
    links: links.length,
    linksAboveFold: links.filter((l) => scan.aboveFold(scan.box(l))).length,
    forms,
    inputs: scan.controls().length,
    images: images.length,
    imagesAboveFold: images.filter((el) => scan.aboveFold(scan.box(el))).length,
    headings: scan.headings(),
  };
}
