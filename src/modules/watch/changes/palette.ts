// `palette` changes, read from the computed colours of the DOM (buttons, backgrounds, text), each
// weighted by painted area. The screenshot's pixel palette is not used here: photos, videos and
// carousel slides move it without any design change; what pixels show is the `visual` kind's job.

import { deltaE2000Hex } from "../../analysis/color";
import type { Extraction, PaletteEntry } from "../../capture/model";
import type { Change, Severity } from "./model";

type Group = "buttons" | "background" | "text";
const GROUPS: { key: Group; label: string }[] = [
  { key: "buttons", label: "Button colour" },
  { key: "background", label: "Background colour" },
  { key: "text", label: "Text colour" },
];

/** A colour covering less of its group than this is an accent, not part of the palette. */
const MIN_SHARE = 0.03;
/** Any trace of a colour this close means it is still there (ΔE00 ~2 is a just-noticeable difference). */
const SAME = 3;
/** Still present at all: a colour that merely fell below MIN_SHARE was not "removed". */
const TRACE_SHARE = 0.005;
const BIG = 10;

const pct = (share: number) => `${Math.round(share * 100)}%`;

function present(hex: string, list: PaletteEntry[]): boolean {
  return list.some((e) => e.share >= TRACE_SHARE && deltaE2000Hex(hex, e.hex) <= SAME);
}

export function paletteChanges(before: Extraction, after: Extraction): Change[] {
  const viewport = after.viewport;
  const out: Change[] = [];
  for (const { key, label } of GROUPS) {
    const lb = before.palette[key];
    const la = after.palette[key];
    const removed = lb.filter((e) => e.share >= MIN_SHARE && !present(e.hex, la));
    const added = la.filter((e) => e.share >= MIN_SHARE && !present(e.hex, lb));
    // A colour gone and another come in the same role is one colour changed: pair them by share,
    // most prominent first ("the button blue became red").
    removed.sort((x, y) => y.share - x.share);
    added.sort((x, y) => y.share - x.share);
    const n = Math.min(removed.length, added.length);
    for (let i = 0; i < n; i++) {
      const b = removed[i]!;
      const a = added[i]!;
      const dE = deltaE2000Hex(b.hex, a.hex);
      const big = dE >= BIG;
      const severity: Severity = !big ? "low" : key === "buttons" || Math.max(a.share, b.share) >= 0.3 ? "high" : "medium";
      out.push({
        kind: "palette",
        severity,
        viewport,
        summary: `${label} ${b.hex} → ${a.hex} (ΔE ${dE.toFixed(1)}, ${pct(a.share)} of ${key})`,
        before: b.hex,
        after: a.hex,
        evidence: { deltaE: Math.round(dE * 10) / 10 },
      });
    }
    for (const b of removed.slice(n)) {
      out.push({ kind: "palette", severity: b.share >= 0.2 ? "medium" : "low", viewport, summary: `${label} removed: ${b.hex} (was ${pct(b.share)} of ${key})`, before: b.hex, after: null, evidence: {} });
    }
    for (const a of added.slice(n)) {
      out.push({ kind: "palette", severity: a.share >= 0.2 ? "medium" : "low", viewport, summary: `${label} added: ${a.hex} (${pct(a.share)} of ${key})`, before: null, after: a.hex, evidence: {} });
    }
  }
  return out;
}
