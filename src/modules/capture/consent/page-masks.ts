// Runs inside the captured page (bundled into the page script). The elements the capture masks —
// consent banners still on screen — so the gatherers leave them out: what they hold is not the
// page's design, copy or calls to action. Set once the consent phase has looked (page-banners.ts),
// kept for every later measurement of the same document.

let masked: Element[] = [];

export function setMasked(elements: Element[]): void {
  masked = elements;
}

/** Whether `node` is a masked element or inside one (a node in a masked element's shadow tree included). */
export function isMasked(node: Node): boolean {
  if (masked.length === 0) return false;
  for (let n: Node | null = node; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) {
    if (n.nodeType === Node.ELEMENT_NODE && masked.includes(n as Element)) return true;
  }
  return false;
}

/** Every banner a look found in this document, closed ones included. */
const banners = new Set<Element>();

export function noteBanners(elements: Element[]): void {
  for (const el of elements) banners.add(el);
}

const inBanner = (node: Node) => {
  for (let n: Node | null = node; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) {
    if (banners.has(n as Element)) return true;
  }
  return false;
};

/**
 * Whether a change to the document is a consent banner's own: one closing after its answer (a
 * fade's end, `display: none`, its removal). It is off screen either way, so the page the
 * capture measured has not changed (page/settle.ts).
 */
export function isBannerChange(record: MutationRecord): boolean {
  if (banners.size === 0) return false;
  if (inBanner(record.target)) return true;
  const nodes = [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  return record.type === "childList" && nodes.length > 0 && nodes.every((n) => banners.has(n as Element) || inBanner(n));
}
