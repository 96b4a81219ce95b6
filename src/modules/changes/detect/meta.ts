// `meta` changes: the title and the meta description, as search results and link previews show them.

import type { Extraction } from "#server/modules/capture/model";
import type { DetectedChange as Change } from "../model";
import { normaliseText, q } from "./text";

export function metaChanges(before: Extraction, after: Extraction): Change[] {
  const out: Change[] = [];
  const field = (name: string, b: string, a: string, severity: Change["severity"]) => {
    const nb = normaliseText(b);
    const na = normaliseText(a);
    if (nb === na) return;
    out.push({
      kind: "meta",
      severity,
      viewport: after.viewport,
      summary: nb && na ? `${name} ${q(nb)} → ${q(na)}` : na ? `${name} added: ${q(na)}` : `${name} removed: ${q(nb)}`,
      before: nb || null,
      after: na || null,
      evidence: {},
    });
  };
  field("Title", before.title, after.title, "medium");
  field("Meta description", before.metaDescription, after.metaDescription, "low");
  return out;
}
