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
  const left = a && ids.has(a) ? a : pool.find((id) => id !== b) ?? null;
  const right = b && ids.has(b) && b !== left ? b : pool.find((id) => id !== left) ?? null;
  return left && right ? [left, right] : null;
}

/** The newest diff for exactly this pair and viewport, in either order. */
export function diffForPair(diffs: DiffDto[], viewport: Viewport, pair: Pair): DiffDto | null {
  let best: DiffDto | null = null;
  for (const d of diffs) {
    if (d.viewport !== viewport) continue;
    const match =
      (d.targetAId === pair[0] && d.targetBId === pair[1]) || (d.targetAId === pair[1] && d.targetBId === pair[0]);
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
