// `layout` changes: page regions (header, hero, sections, footer, asides) added, removed or moved,
// and the column count. Regions are aligned in page order (see align()), so a removed section is one
// change, not a cascade of everything below it moving up.

import type { Box, Extraction } from "#server/modules/capture/model";
import type { DetectedChange as Change } from "../model";
import { q, textKey } from "./text";
import type { Volatility } from "#server/modules/capture/public";
import { inVolatileBox, isVolatileText } from "./volatility";

type Region = Extraction["layout"]["regions"][number];

/** Heights within this ratio (or this many px) are the same region grown by a line of text. */
const HEIGHT_RATIO = 1.35;
const HEIGHT_SLACK_PX = 48;
/** A region shorter than this is a divider or an empty wrapper. */
const MIN_HEIGHT = 40;

interface Placed extends Region {
  /** Key of the first heading inside, "" when none: two sections titled differently are different sections. */
  title: string;
  heading: string;
}

/** 0: different regions; 1: same kind and about the same size; 2: that and the same title too. */
function match(a: Placed, b: Placed): number {
  if (a.kind !== b.kind) return 0;
  const ha = a.box.height;
  const hb = b.box.height;
  if (Math.abs(ha - hb) > HEIGHT_SLACK_PX && Math.max(ha, hb) / Math.max(1, Math.min(ha, hb)) > HEIGHT_RATIO) return 0;
  return a.title === b.title ? 2 : 1;
}

/**
 * Aligns the two region sequences (a weighted longest common subsequence): the most regions
 * paired, same titles preferred, so among look-alike sections the one whose title vanished is the
 * one removed, while a retitled hero is still the same hero (its new headline is a `copy` change).
 */
function align(a: Placed[], b: Placed[]): { onlyA: Placed[]; onlyB: Placed[] } {
  const n = a.length;
  const m = b.length;
  const t: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const w = match(a[i]!, b[j]!);
      t[i]![j] = Math.max(t[i + 1]![j]!, t[i]![j + 1]!, w > 0 ? t[i + 1]![j + 1]! + w : 0);
    }
  }
  const onlyA: Placed[] = [];
  const onlyB: Placed[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const w = match(a[i]!, b[j]!);
    if (w > 0 && t[i]![j] === t[i + 1]![j + 1]! + w) {
      i++;
      j++;
    } else if (t[i + 1]![j]! >= t[i]![j + 1]!) onlyA.push(a[i++]!);
    else onlyB.push(b[j++]!);
  }
  while (i < n) onlyA.push(a[i++]!);
  while (j < m) onlyB.push(b[j++]!);
  return { onlyA, onlyB };
}

/** Within this, a region met out of order is the same region measured a few px apart (a fixed sidebar measured while scrolled). */
const SAME_PLACE_PX = 48;

/**
 * The alignment keeps page order, so a region that came out in another order (a fixed sidebar
 * measured 6 px lower than the hero beside it; a section moved above another) is left over on
 * both sides. Leftovers of the same kind, size and title are one region: moved if it went further
 * than SAME_PLACE_PX, else the same. Untitled ones pair only in the same place (two look-alike
 * untitled sections far apart are a removal and an addition).
 */
function pairLeftovers(onlyA: Placed[], onlyB: Placed[]): { moved: [Placed, Placed][]; onlyA: Placed[]; onlyB: Placed[] } {
  const candidates: { a: Placed; b: Placed; d: number }[] = [];
  for (const a of onlyA)
    for (const b of onlyB) {
      const d = Math.abs(a.box.y - b.box.y);
      if (match(a, b) === 2 && (a.title !== "" || d <= SAME_PLACE_PX)) candidates.push({ a, b, d });
    }
  candidates.sort((x, y) => x.d - y.d);
  const usedA = new Set<Placed>();
  const usedB = new Set<Placed>();
  const moved: [Placed, Placed][] = [];
  for (const c of candidates) {
    if (usedA.has(c.a) || usedB.has(c.b)) continue;
    usedA.add(c.a);
    usedB.add(c.b);
    if (c.d > SAME_PLACE_PX) moved.push([c.a, c.b]);
  }
  return { moved, onlyA: onlyA.filter((a) => !usedA.has(a)), onlyB: onlyB.filter((b) => !usedB.has(b)) };
}

function place(r: Region, ex: Extraction, v: Volatility): Placed {
  const inside = (b: Box) => b.y >= r.box.y - 1 && b.y + b.height <= r.box.y + r.box.height + 1;
  // A carousel slide's heading names the slide showing, not the section.
  const heading =
    ex.elements.headings
      .filter((h) => inside(h.box) && !isVolatileText(h.text, v) && !inVolatileBox(h.box, v))
      .sort((x, y) => x.box.y - y.box.y)[0]?.text ?? "";
  return { ...r, heading, title: textKey(heading) };
}

/** What a region is called in a summary: its first heading when it has one. */
function describe(r: Placed): string {
  const name = r.kind === "section" ? "Section" : r.kind[0]!.toUpperCase() + r.kind.slice(1);
  return `${name}${r.heading ? ` ${q(r.heading, 50)}` : ""} (${Math.round(r.box.height)} px tall at ${Math.round(r.box.y)} px)`;
}

export function layoutChanges(before: Extraction, after: Extraction, v: Volatility): Change[] {
  const viewport = after.viewport;
  const regions = (ex: Extraction) =>
    ex.layout.regions
      .filter((r) => r.kind !== "main" && r.box.height >= MIN_HEIGHT && !inVolatileBox(r.box, v))
      // Regions that start on the same line (a fixed sidebar beside the hero) come in whichever
      // order the DOM walk met them: a fixed tie-break keeps the alignment from crossing them.
      .sort((x, y) => x.box.y - y.box.y || x.box.x - y.box.x || x.kind.localeCompare(y.kind) || x.box.height - y.box.height)
      .map((r) => place(r, ex, v));
  const aligned = align(regions(before), regions(after));
  const { moved, onlyA, onlyB } = pairLeftovers(aligned.onlyA, aligned.onlyB);
  const out: Change[] = [];
  const weight = (r: Region) => (r.kind === "section" || r.kind === "aside" ? "medium" : "high");
  for (const [a, b] of moved) {
    const d = describe(a).replace(/ \(.*\)$/, "");
    out.push({
      kind: "layout",
      severity: "medium",
      viewport,
      summary: `Moved: ${d} from ${Math.round(a.box.y)} px to ${Math.round(b.box.y)} px`,
      before: `${Math.round(a.box.y)} px`,
      after: `${Math.round(b.box.y)} px`,
      evidence: { beforeBox: a.box, afterBox: b.box },
    });
  }
  for (const r of onlyA) {
    const d = describe(r);
    out.push({
      kind: "layout",
      severity: weight(r),
      viewport,
      summary: `Removed: ${d}`,
      before: d,
      after: null,
      evidence: { beforeBox: r.box },
    });
  }
  for (const r of onlyB) {
    const d = describe(r);
    out.push({
      kind: "layout",
      severity: weight(r),
      viewport,
      summary: `Added: ${d}`,
      before: null,
      after: d,
      evidence: { afterBox: r.box },
    });
  }
  if (before.layout.columns !== after.layout.columns) {
    out.push({
      kind: "layout",
      severity: "medium",
      viewport,
      summary: `Columns ${before.layout.columns} → ${after.layout.columns}`,
      before: String(before.layout.columns),
      after: String(after.layout.columns),
      evidence: {},
    });
  }
  return out;
}
