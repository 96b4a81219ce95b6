// A page as the rules should judge it: without what lies in a region its capture masked (a consent
// banner left on screen, capture/consent/). The capture already leaves masked elements out of what
// it measures; this keeps a rule from ever reading one that slipped through (a banner's button
// outside the banner's own box, an extraction from elsewhere).

import type { Box, Extraction } from "#server/modules/capture/model";
import type { RuleSnapshot } from "./types";

const centreIn = (b: Box, masks: Box[]) => {
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  return masks.some((m) => cx >= m.x && cx <= m.x + m.width && cy >= m.y && cy <= m.y + m.height);
};

export function withoutMasked<T extends RuleSnapshot>(page: T): T {
  const masks = page.extraction.masks ?? [];
  if (masks.length === 0) return page;
  const e: Extraction = page.extraction;
  const keep = <X extends { box: Box }>(list: X[]) => list.filter((x) => !centreIn(x.box, masks));
  const elements = { ...e.elements, ctas: keep(e.elements.ctas), forms: keep(e.elements.forms), headings: keep(e.elements.headings) };
  return { ...page, extraction: { ...e, elements } };
}
