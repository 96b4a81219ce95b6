// Moves across a set of competitors: when several targets of one comparison made the same kind of
// change in the same window ("2 of 3 competitors changed their CTA text this week"), that is a
// move of the market, not one site's redesign. Changes come from the stored changes through
// `ChangeHistory`; what counts as "the same move" is read from the change's kind and summary,
// which the change detectors write in fixed shapes (src/modules/changes/detect/*).

import type { ChangeKind } from "#server/modules/changes/model";
import type { RecentChange } from "#server/modules/changes/public";

export interface MoveSite {
  targetId: string;
  label: string;
  url: string;
  runId: string;
  fromRunId: string | null;
  summary: string;
  at: string;
}

export interface SetMove {
  ownerId: string;
  comparisonId: string;
  comparisonName: string;
  move: MoveId;
  title: string;
  /** Targets that made the move, and how many targets the comparison watches. */
  support: number;
  of: number;
  sites: MoveSite[];
}

const MOVES = {
  "cta-text": "changed their CTA text",
  "cta-colour": "changed their CTA colour",
  "cta-position": "moved their CTA across the fold",
  "cta-added": "added a call to action",
  "cta-removed": "removed a call to action",
  headline: "rewrote their headline",
  copy: "changed their page copy",
  palette: "changed their colours",
  fonts: "changed their fonts",
  "type-style": "restyled their text",
  layout: "changed their layout",
  title: "changed their page title",
  description: "changed their meta description",
  speed: "changed their page speed",
} as const;
export type MoveId = keyof typeof MOVES;

/** The move a change is part of; null for changes that say nothing alone (a pixel share). */
export function moveOf(kind: ChangeKind, summary: string): MoveId | null {
  switch (kind) {
    case "cta":
      if (summary.startsWith("CTA text ")) return "cta-text";
      if (summary.startsWith("CTA added")) return "cta-added";
      if (summary.startsWith("CTA removed")) return "cta-removed";
      if (/ moved /.test(summary)) return "cta-position";
      if (/ colour /.test(summary)) return "cta-colour";
      return "cta-text";
    case "copy":
      return summary.startsWith("Headline") ? "headline" : "copy";
    case "palette":
      return "palette";
    case "typography":
      return summary.startsWith("Font families") ? "fonts" : "type-style";
    case "layout":
      return "layout";
    case "meta":
      return summary.startsWith("Meta description") ? "description" : "title";
    case "timing":
      return "speed";
    case "visual":
    case "pages":
      return null;
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Moves made by at least `minSupport` targets of one comparison. `targetsOf` is how many targets
 * the comparison watches (the "of 3"); comparisons watching fewer than two have no set to speak of.
 */
export function findSetMoves(
  changes: RecentChange[],
  targetsOf: (comparisonId: string) => number,
  opts: { window: string; minSupport?: number },
): SetMove[] {
  const minSupport = Math.max(2, opts.minSupport ?? 2);
  const groups = new Map<string, { first: RecentChange; move: MoveId; sites: Map<string, MoveSite> }>();
  for (const c of changes) {
    const move = moveOf(c.kind, c.summary);
    if (!move) continue;
    const key = `${c.ownerId}\u0000${c.comparisonId}\u0000${move}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { first: c, move, sites: new Map() }));
    // A target counts once per move: its latest change of that kind stands for it.
    const prev = g.sites.get(c.targetId);
    if (!prev || c.at > prev.at)
      g.sites.set(c.targetId, {
        targetId: c.targetId,
        label: c.label,
        url: c.url,
        runId: c.runId,
        fromRunId: c.fromRunId ?? null,
        summary: c.summary,
        at: c.at,
      });
  }
  const out: SetMove[] = [];
  for (const g of groups.values()) {
    const of = Math.max(targetsOf(g.first.comparisonId), g.sites.size);
    if (of < 2 || g.sites.size < minSupport) continue;
    const sites = [...g.sites.values()].sort((a, b) => a.label.localeCompare(b.label) || a.targetId.localeCompare(b.targetId));
    out.push({
      ownerId: g.first.ownerId,
      comparisonId: g.first.comparisonId,
      comparisonName: g.first.comparisonName,
      move: g.move,
      title: `${sites.length} of ${plural(of, "competitor", "competitors")} ${MOVES[g.move]} ${opts.window}`,
      support: sites.length,
      of,
      sites,
    });
  }
  return out.sort(
    (a, b) => b.support / b.of - a.support / a.of || a.comparisonId.localeCompare(b.comparisonId) || a.move.localeCompare(b.move),
  );
}

/** The change view a move's site links to (relative: the activity feed opens it in the app). */
export function changeViewPath(comparisonId: string, site: Pick<MoveSite, "runId" | "fromRunId" | "targetId">): string {
  const q = new URLSearchParams({ id: comparisonId, from: site.fromRunId ?? "", to: site.runId, target: site.targetId });
  return `/comparison?${q}`;
}
