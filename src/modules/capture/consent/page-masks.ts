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
