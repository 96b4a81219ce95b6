// `cta` changes: a call to action's text, colour, side of the fold, or its being added/removed.
// CTAs are paired first by label, then by link target, then by position, so a relabelled button
// reads as one change ("Start free" → "Book a demo") rather than one removed and one added.

import { deltaE2000Hex } from "#server/modules/analysis/public";
import type { Extraction } from "#server/modules/capture/model";
import type { DetectedChange as Change } from "../model";
import { q, textKey } from "./text";
import type { Volatility } from "#server/modules/capture/public";
import { inVolatileBox, isVolatileText } from "./volatility";

type Cta = Extraction["elements"]["ctas"][number];

/** ΔE00 below this is rendering noise or a shade nobody would call a change. */
const COLOUR_JND = 5;
/** From here a colour change is a different colour, not a tint. */
const COLOUR_BIG = 10;
/** Two unlabelled-alike CTAs this close (centre distance, CSS px) are the same control. */
const NEAR_PX = 80;

const centre = (c: Cta) => ({ x: c.box.x + c.box.width / 2, y: c.box.y + c.box.height / 2 });
const dist = (a: Cta, b: Cta) => Math.hypot(centre(a).x - centre(b).x, centre(a).y - centre(b).y);
const fold = (c: Cta) => (c.aboveFold ? "above the fold" : "below the fold");

function pairBy(before: Cta[], after: Cta[], same: (a: Cta, b: Cta) => boolean, score: (a: Cta, b: Cta) => number) {
  const pairs: [Cta, Cta][] = [];
  const candidates: { a: Cta; b: Cta; s: number }[] = [];
  for (const a of before) for (const b of after) if (same(a, b)) candidates.push({ a, b, s: score(a, b) });
  candidates.sort((x, y) => x.s - y.s);
  const usedA = new Set<Cta>();
  const usedB = new Set<Cta>();
  for (const c of candidates) {
    if (usedA.has(c.a) || usedB.has(c.b)) continue;
    usedA.add(c.a);
    usedB.add(c.b);
    pairs.push([c.a, c.b]);
  }
  return { pairs, restA: before.filter((a) => !usedA.has(a)), restB: after.filter((b) => !usedB.has(b)) };
}

export function ctaChanges(before: Extraction, after: Extraction, v: Volatility): Change[] {
  const viewport = after.viewport;
  const keep = (c: Cta) => !isVolatileText(c.text, v) && !inVolatileBox(c.box, v);
  const bs = before.elements.ctas.filter(keep);
  const as = after.elements.ctas.filter(keep);
  const out: Change[] = [];

  const byText = pairBy(bs, as, (a, b) => textKey(a.text) === textKey(b.text), dist);
  const byHref = pairBy(byText.restA, byText.restB, (a, b) => !!a.href && a.href === b.href, dist);
  const byPlace = pairBy(byHref.restA, byHref.restB, (a, b) => dist(a, b) <= NEAR_PX && Math.abs(a.box.height - b.box.height) <= 16, dist);

  for (const [b, a] of [...byText.pairs, ...byHref.pairs, ...byPlace.pairs]) {
    const prominent = a.aboveFold || b.aboveFold;
    const ev = { beforeBox: b.box, afterBox: a.box };
    if (textKey(a.text) !== textKey(b.text)) {
      out.push({
        kind: "cta",
        severity: prominent ? "high" : "medium",
        viewport,
        summary: `CTA text ${q(b.text)} → ${q(a.text)}`,
        before: b.text,
        after: a.text,
        evidence: ev,
      });
    }
    const dE = deltaE2000Hex(b.bg, a.bg);
    if (Number.isFinite(dE) && dE >= COLOUR_JND) {
      out.push({
        kind: "cta",
        severity: dE >= COLOUR_BIG ? (prominent ? "high" : "medium") : "low",
        viewport,
        summary: `CTA ${q(a.text)} colour ${b.bg} → ${a.bg} (ΔE ${dE.toFixed(1)})`,
        before: b.bg,
        after: a.bg,
        evidence: { ...ev, deltaE: Math.round(dE * 10) / 10 },
      });
    }
    if (a.aboveFold !== b.aboveFold) {
      out.push({
        kind: "cta",
        severity: "medium",
        viewport,
        summary: `CTA ${q(a.text)} moved ${fold(b)} → ${fold(a)}`,
        before: fold(b),
        after: fold(a),
        evidence: ev,
      });
    }
  }
  for (const b of byPlace.restA) {
    out.push({
      kind: "cta",
      severity: b.aboveFold ? "high" : "medium",
      viewport,
      summary: `CTA removed: ${q(b.text)} (${fold(b)})`,
      before: b.text,
      after: null,
      evidence: { beforeBox: b.box },
    });
  }
  for (const a of byPlace.restB) {
    out.push({
      kind: "cta",
      severity: a.aboveFold ? "high" : "medium",
      viewport,
      summary: `CTA added: ${q(a.text)} (${fold(a)})`,
      before: null,
      after: a.text,
      evidence: { afterBox: a.box },
    });
  }
  return out;
}
