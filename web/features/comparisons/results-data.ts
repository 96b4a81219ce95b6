// Pure selection logic for the results page: which snapshot stands for a site, which two sites are
// on screen, and which scores and findings belong to that pair.
import type { Viewport } from "#server/modules/capture/model";
import type { DiffDto, FindingDto, SnapshotDto, TargetDto } from "#server/modules/comparisons/model";

/** Spec §3: the snapshot used per target is the latest by capturedAt. */
export function latestSnapshots(snapshots: SnapshotDto[], viewport: Viewport): Map<string, SnapshotDto> {
  const out = new Map<string, SnapshotDto>();
  for (const s of snapshots) {
    if (s.viewport !== viewport) continue;
    const prev = out.get(s.targetId);
    if (!prev || Date.parse(s.capturedAt) > Date.parse(prev.capturedAt)) out.set(s.targetId, s);
  }
  return out;
}

/** Targets in creation order (spec §3), the ones with a snapshot first. */
export function orderTargets(targets: TargetDto[]): TargetDto[] {
  return [...targets].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

export type Pair = [string, string];

/**
 * The pair to show: the requested one when both ids are real and distinct, else the first two
 * sites that have a screenshot in this viewport, else simply the first two sites.
 */
export function choosePair(
  targets: TargetDto[],
  shots: Map<string, SnapshotDto>,
  requested: [string | null, string | null] = [null, null],
): Pair | null {
  const ordered = orderTargets(targets);
  const ids = new Set(ordered.map((t) => t.id));
  const [a, b] = requested;
  const withShots = ordered.filter((t) => shots.has(t.id)).map((t) => t.id);
  const pool = withShots.length >= 2 ? withShots : ordered.map((t) => t.id);
  const left = a && ids.has(a) ? a : (pool.find((id) => id !== b) ?? null);
  const right = b && ids.has(b) && b !== left ? b : (pool.find((id) => id !== left) ?? null);
  return left && right ? [left, right] : null;
}

/** The newest diff for exactly this pair and viewport, in either order. */
export function diffForPair(diffs: DiffDto[], viewport: Viewport, pair: Pair): DiffDto | null {
  let best: DiffDto | null = null;
  for (const d of diffs) {
    if (d.viewport !== viewport) continue;
    const match = (d.targetAId === pair[0] && d.targetBId === pair[1]) || (d.targetAId === pair[1] && d.targetBId === pair[0]);
    if (match && (!best || Date.parse(d.createdAt) > Date.parse(best.createdAt))) best = d;
  }
  return best;
}

const SEVERITY_RANK = { high: 0, medium: 1, low: 2 } as const;

/** Findings about either site on screen in this viewport, most severe first. */
export function findingsForPair(findings: FindingDto[], viewport: Viewport, pair: Pair): FindingDto[] {
  return findings
    .filter((f) => f.viewport === viewport && (f.targetId === pair[0] || f.targetId === pair[1]))
    .sort((x, y) => SEVERITY_RANK[x.severity] - SEVERITY_RANK[y.severity]);
}

/** A fraction as a whole percentage; values already above 1 are taken as percentages. */
export function asPercent(value: number): string {
  if (!Number.isFinite(value)) return "–";
  const pct = value <= 1 ? value * 100 : value;
  return `${Math.round(Math.max(0, Math.min(100, pct)))}%`;
}

export interface FindingFilters {
  /** Only this viewport, or every viewport. */
  viewport: Viewport | "all";
  /** Only the two sites on screen, or every site. */
  sites: "pair" | "all";
  severity: FindingDto["severity"] | "all";
}

/**
 * The findings a filter keeps, most severe first, with a line that says what is hidden
 * ("4 of 8 — desktop · Alpha vs Beta"): the total is every finding, as the export counts them.
 */
export function filterFindings(
  findings: FindingDto[],
  filters: FindingFilters,
  pair: Pair,
  labelOf: (id: string) => string,
): { shown: FindingDto[]; total: number; summary: string } {
  const shown = findings
    .filter(
      (f) =>
        (filters.viewport === "all" || f.viewport === filters.viewport) &&
        (filters.sites === "all" || f.targetId === pair[0] || f.targetId === pair[1]) &&
        (filters.severity === "all" || f.severity === filters.severity),
    )
    .sort((x, y) => SEVERITY_RANK[x.severity] - SEVERITY_RANK[y.severity]);
  const scope = [
    filters.viewport === "all" ? null : filters.viewport,
    filters.sites === "all" ? null : `${labelOf(pair[0])} vs ${labelOf(pair[1])}`,
    filters.severity === "all" ? null : `${filters.severity} severity`,
  ].filter(Boolean);
  const count = `${shown.length} of ${findings.length}`;
  return {
    shown,
    total: findings.length,
    summary: scope.length && shown.length < findings.length ? `${count} — ${scope.join(" · ")}` : count,
  };
}

export interface MatrixCell {
  pair: Pair;
  diff: DiffDto | null;
}

/** Every ordered pair of sites in one viewport with its newest scores; the diagonal is null. */
export function similarityMatrix(targets: TargetDto[], diffs: DiffDto[], viewport: Viewport): (MatrixCell | null)[][] {
  return targets.map((row) =>
    targets.map((col) =>
      row.id === col.id ? null : { pair: [row.id, col.id] as Pair, diff: diffForPair(diffs, viewport, [row.id, col.id]) },
    ),
  );
}

/** A heat-map colour for a 0..1 similarity: red (different) through amber to green (alike). */
export function heatColor(value: number): string {
  const v = Math.max(0, Math.min(1, value <= 1 ? value : value / 100));
  // Translucent, so the same colour reads on the light and the dark theme with the theme's text colour.
  return `hsl(${Math.round(v * 130)} 75% 50% / ${(0.3 + v * 0.4).toFixed(2)})`;
}

export interface FilmstripTrack {
  targetId: string;
  frames: { ms: number; url: string }[];
}

/**
 * The columns of a shared time axis: every 0.1 s while the load is short, else every moment any
 * site's picture changed, plus the start.
 * Each track shows, per column, its latest frame at or before that moment (null before its first).
 */
export function filmstripColumns(
  tracks: FilmstripTrack[],
  slotMs = 100,
  maxRegular = 30,
): { ms: number; frames: ({ ms: number; url: string } | null)[] }[] {
  const times = new Set<number>([0]);
  for (const t of tracks) for (const f of t.frames) times.add(Math.ceil(f.ms / slotMs) * slotMs);
  // A short load reads best on a regular 0.1 s axis, as WebPageTest draws it; a long one only at its changes.
  const end = Math.max(...times);
  if (end / slotMs <= maxRegular) for (let ms = 0; ms < end; ms += slotMs) times.add(ms);
  const columns = [...times]
    .sort((a, b) => a - b)
    .map((ms) => ({
      ms,
      frames: tracks.map((t) => {
        let best: { ms: number; url: string } | null = null;
        for (const f of t.frames) if (f.ms <= ms) best = f;
        return best;
      }),
    }));
  // Until some site paints there is nothing to compare: one blank column at 0.0 s stands for that stretch.
  return columns.filter((c, i) => i === 0 || c.frames.some(Boolean));
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
