// `copy` changes: the headline, then visible text blocks added, removed or edited.

import type { Box, Extraction } from "#server/modules/capture/model";
import type { DetectedChange as Change } from "../model";
import { multisetDiff, normaliseText, q, textKey, wordSimilarity } from "./text";
import type { Volatility } from "#server/modules/capture/public";
import { inVolatileBox, isVolatileText } from "./volatility";

/** An added and a removed block this alike are one edited block. */
const EDIT_SIMILARITY = 0.5;
const MAX_PAIRINGS = 40_000;
/** Blocks quoted in a grouped summary. */
const QUOTED = 3;

function headingBox(ex: Extraction, text: string): Box | undefined {
  const k = textKey(text);
  return ex.elements.headings.find((h) => textKey(h.text) === k)?.box;
}

function blocks(ex: Extraction, skip: Set<string>): string[] {
  return ex.copy.visibleText
    .split("\n")
    .map(normaliseText)
    .filter((t) => t && /[\p{L}\p{N}]/u.test(t) && !skip.has(textKey(t)));
}

export function copyChanges(before: Extraction, after: Extraction, v: Volatility): Change[] {
  const viewport = after.viewport;
  const out: Change[] = [];
  const hb = normaliseText(before.copy.headline);
  const ha = normaliseText(after.copy.headline);
  const headlineVolatile = isVolatileText(hb, v) || isVolatileText(ha, v);
  if (textKey(hb) !== textKey(ha) && !headlineVolatile) {
    out.push({
      kind: "copy",
      severity: "high",
      viewport,
      summary: hb && ha ? `Headline ${q(hb)} → ${q(ha)}` : ha ? `Headline added: ${q(ha)}` : `Headline removed: ${q(hb)}`,
      before: hb || null,
      after: ha || null,
      evidence: { beforeBox: headingBox(before, hb), afterBox: headingBox(after, ha) },
    });
  }

  // CTA labels are `cta` changes and the headline is above; the rest of the visible text is here.
  const skip = new Set([hb, ha, ...before.elements.ctas.map((c) => c.text), ...after.elements.ctas.map((c) => c.text)].map(textKey));
  const volatile = (ex: Extraction) => (t: string) => isVolatileText(t, v) || inVolatileBox(headingBox(ex, t), v);
  const { onlyA, onlyB } = multisetDiff(blocks(before, skip), blocks(after, skip), textKey);
  const removed = onlyA.filter((t) => !volatile(before)(t));
  const added = onlyB.filter((t) => !volatile(after)(t));

  // Pair edits greedily by word overlap, best first.
  const pairs: { i: number; j: number; s: number }[] = [];
  // A page rewritten end to end has hundreds of blocks each side: pairing them all costs seconds
  // and tells nothing a list of what came and went does not.
  const pairable = removed.length * added.length <= MAX_PAIRINGS;
  for (let i = 0; pairable && i < removed.length; i++) {
    for (let j = 0; j < added.length; j++) {
      const s = wordSimilarity(removed[i]!, added[j]!);
      if (s >= EDIT_SIMILARITY) pairs.push({ i, j, s });
    }
  }
  pairs.sort((a, b) => b.s - a.s);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  for (const p of pairs) {
    if (usedA.has(p.i) || usedB.has(p.j)) continue;
    usedA.add(p.i);
    usedB.add(p.j);
    const b = removed[p.i]!;
    const a = added[p.j]!;
    const isHeading = !!headingBox(before, b) || !!headingBox(after, a);
    out.push({
      kind: "copy",
      severity: isHeading ? "medium" : "low",
      viewport,
      summary: `${isHeading ? "Heading" : "Text"} ${q(b)} → ${q(a)}`,
      before: b,
      after: a,
      evidence: { beforeBox: headingBox(before, b), afterBox: headingBox(after, a) },
    });
  }
  const group = (list: string[], ex: Extraction, verb: "added" | "removed"): Change | null => {
    if (list.length === 0) return null;
    const headings = list.filter((t) => headingBox(ex, t));
    const shown = [...headings, ...list.filter((t) => !headingBox(ex, t))].slice(0, QUOTED).map((t) => q(t, 50));
    const more = list.length - shown.length;
    const text = list.join("\n");
    const box = headings.length ? headingBox(ex, headings[0]!) : undefined;
    return {
      kind: "copy",
      severity: headings.length > 0 || list.length >= 3 ? "medium" : "low",
      viewport,
      summary: `Text ${verb}: ${shown.join(", ")}${more > 0 ? ` and ${more} more block${more === 1 ? "" : "s"}` : ""}`,
      before: verb === "removed" ? text : null,
      after: verb === "added" ? text : null,
      evidence: verb === "removed" ? { beforeBox: box } : { afterBox: box },
    };
  };
  const r = group(
    removed.filter((_, i) => !usedA.has(i)),
    before,
    "removed",
  );
  const a = group(
    added.filter((_, j) => !usedB.has(j)),
    after,
    "added",
  );
  if (r) out.push(r);
  if (a) out.push(a);
  return out;
}
