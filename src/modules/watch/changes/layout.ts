// `layout` changes: page regions (header, hero, sections, footer, asides) added or removed, and the
// column count. Regions are aligned in page order (longest common subsequence) where two regions
// are "the same" when they have the same kind and about the same height; so a removed section is
// one change, not a cascade of everything below it moving up.

import type { Box, Extraction } from "../../capture/model";
import type { Change } from "./model";
import { q } from "./text";
import { inVolatileBox, type Volatility } from "./volatility";

type Region = Extraction["layout"]["regions"][number];

/** Heights within this ratio (or this many px) are the same region grown by a line of text. */
const HEIGHT_RATIO = 1.35;
const HEIGHT_SLACK_PX = 48;
/** A region shorter than this is a divider or an empty wrapper. */
const MIN_HEIGHT = 40;

function alike(a: Region, b: Region): boolean {
  if (a.kind !== b.kind) return false;
  const ha = a.box.height;
  const hb = b.box.height;
  return Math.abs(ha - hb) <= HEIGHT_SLACK_PX || Math.max(ha, hb) / Math.max(1, Math.min(ha, hb)) <= HEIGHT_RATIO;
}

function lcs(a: Region[], b: Region[]): { onlyA: Region[]; onlyB: Region[] } {
  const n = a.length;
  const m = b.length;
  const t: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) t[i]![j] = alike(a[i]!, b[j]!) ? t[i + 1]![j + 1]! + 1 : Math.max(t[i + 1]![j]!, t[i]![j + 1]!);
  const onlyA: Region[] = [];
  const onlyB: Region[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (alike(a[i]!, b[j]!) && t[i]![j] === t[i + 1]![j + 1]! + 1) {
      i++;
      j++;
    } else if (t[i + 1]![j]! >= t[i]![j + 1]!) onlyA.push(a[i++]!);
    else onlyB.push(b[j++]!);
  }
  while (i < n) onlyA.push(a[i++]!);
  while (j < m) onlyB.push(b[j++]!);
  return { onlyA, onlyB };
}

/** What a region is called in a summary: its first heading when it has one. */
function describe(r: Region, ex: Extraction): string {
  const inside = (b: Box) => b.y >= r.box.y - 1 && b.y + b.height <= r.box.y + r.box.height + 1;
  const heading = ex.elements.headings.filter((h) => inside(h.box)).sort((x, y) => x.box.y - y.box.y)[0];
  const name = r.kind === "section" ? "Section" : r.kind[0]!.toUpperCase() + r.kind.slice(1);
  return `${name}${heading ? ` ${q(heading.text, 50)}` : ""} (${Math.round(r.box.height)} px tall at ${Math.round(r.box.y)} px)`;
}

export function layoutChanges(before: Extraction, after: Extraction, v: Volatility): Change[] {
  const viewport = after.viewport;
  const regions = (ex: Extraction) =>
    ex.layout.regions.filter((r) => r.kind !== "main" && r.box.height >= MIN_HEIGHT && !inVolatileBox(r.box, v)).sort((x, y) => x.box.y - y.box.y);
  const { onlyA, onlyB } = lcs(regions(before), regions(after));
  const out: Change[] = [];
  const weight = (r: Region) => (r.kind === "section" || r.kind === "aside" ? "medium" : "high");
  for (const r of onlyA) {
    const d = describe(r, before);
    out.push({ kind: "layout", severity: weight(r), viewport, summary: `Removed: ${d}`, before: d, after: null, evidence: { beforeBox: r.box } });
  }
  for (const r of onlyB) {
    const d = describe(r, after);
    out.push({ kind: "layout", severity: weight(r), viewport, summary: `Added: ${d}`, before: null, after: d, evidence: { afterBox: r.box } });
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
