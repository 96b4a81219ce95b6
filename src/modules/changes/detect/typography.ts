// `typography` changes: the families in use, the body text style, the main heading's style and
// the weights in use. Sizes within 1 px are the same size (sub-pixel rounding of rem/vw units).

import type { Extraction } from "#server/modules/capture/model";
import type { DetectedChange as Change } from "../model";

const MIN_FAMILY_SHARE = 0.05;
const MIN_WEIGHT_SHARE = 0.1;
const SIZE_TOLERANCE_PX = 1;

const fam = (f: string) => f.replace(/["']/g, "").trim().toLowerCase();
const style = (s: { family: string; sizePx: number; weight: number }) => `${s.family} ${Math.round(s.sizePx)} px / ${s.weight}`;

function styleChanged(a: { family: string; sizePx: number; weight: number }, b: { family: string; sizePx: number; weight: number }) {
  return fam(a.family) !== fam(b.family) || Math.abs(a.sizePx - b.sizePx) > SIZE_TOLERANCE_PX || a.weight !== b.weight;
}

export function typographyChanges(before: Extraction, after: Extraction): Change[] {
  const viewport = after.viewport;
  const out: Change[] = [];
  const tb = before.typography;
  const ta = after.typography;

  const families = (t: Extraction["typography"]) =>
    new Map(t.families.filter((f) => f.share >= MIN_FAMILY_SHARE).map((f) => [fam(f.family), f.family]));
  const fb = families(tb);
  const fa = families(ta);
  const allB = new Set(tb.families.map((f) => fam(f.family)));
  const allA = new Set(ta.families.map((f) => fam(f.family)));
  const gone = [...fb].filter(([k]) => !allA.has(k)).map(([, v]) => v);
  const come = [...fa].filter(([k]) => !allB.has(k)).map(([, v]) => v);
  if (gone.length || come.length) {
    out.push({
      kind: "typography",
      severity: "high",
      viewport,
      summary: `Font families ${gone.join(", ") || "—"} → ${come.join(", ") || "—"}`,
      before: gone.join(", ") || null,
      after: come.join(", ") || null,
      evidence: {},
    });
  }

  if (tb.body && ta.body && styleChanged(tb.body, ta.body)) {
    out.push({
      kind: "typography",
      severity: "medium",
      viewport,
      summary: `Body text ${style(tb.body)} → ${style(ta.body)}`,
      before: style(tb.body),
      after: style(ta.body),
      evidence: {},
    });
  }
  const h1b = tb.headings.find((h) => h.level === 1);
  const h1a = ta.headings.find((h) => h.level === 1);
  if (h1b && h1a && styleChanged(h1b, h1a)) {
    out.push({
      kind: "typography",
      severity: "medium",
      viewport,
      summary: `Main heading ${style(h1b)} → ${style(h1a)}`,
      before: style(h1b),
      after: style(h1a),
      evidence: {},
    });
  }

  const weights = (t: Extraction["typography"]) => t.weights.filter((w) => w.share >= MIN_WEIGHT_SHARE).map((w) => w.weight);
  const wb = weights(tb);
  const wa = weights(ta);
  const allWb = new Set(tb.weights.map((w) => w.weight));
  const allWa = new Set(ta.weights.map((w) => w.weight));
  const wGone = wb.filter((w) => !allWa.has(w));
  const wCome = wa.filter((w) => !allWb.has(w));
  if (wGone.length || wCome.length) {
    out.push({
      kind: "typography",
      severity: "low",
      viewport,
      summary: `Font weights ${wGone.join(", ") || "—"} → ${wCome.join(", ") || "—"}`,
      before: wGone.join(", ") || null,
      after: wCome.join(", ") || null,
      evidence: {},
    });
  }
  return out;
}
