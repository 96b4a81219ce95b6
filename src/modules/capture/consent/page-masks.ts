// Runs inside the captured page (bundled into the page script). The consent banners a look has
// found (page-banners.ts), each with the box holding it and its platform's other parts: the
// gatherers leave them out, on screen or closing (a banner fading out is still in the document),
// since what they hold is not the page's design, copy or calls to action; and a change inside them
// once answered is the platform closing, not the page changing (page/settle.ts).

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

/** The banners still in the document, for audits that take a list of elements to leave out. */
export function bannerElements(): Element[] {
  return [...banners].filter((el) => el.isConnected);
}

/** Whether `node` is in a consent banner (a node in a banner's shadow tree included). */
export function isMasked(node: Node): boolean {
  return banners.size > 0 && inBanner(node);
}

/** Whether a change to the document is a consent banner's own: its closing (a fade's end, `display: none`, its removal). */
export function isBannerChange(record: MutationRecord): boolean {
  if (banners.size === 0) return false;
  if (inBanner(record.target)) return true;
  const nodes = [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  return record.type === "childList" && nodes.length > 0 && nodes.every((n) => banners.has(n as Element) || inBanner(n));
}
