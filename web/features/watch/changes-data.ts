// Pure rules of the change view: kinds and severities in display order, counts for the filters,
// the filter itself, and where a change's evidence sits on a screenshot.
import type { ChangeKind, ChangesResponse, RunDto, Severity } from "./api";

// The server's lists, restated (web/ imports server types only); `satisfies` keeps them in step.
export const KINDS = [
  "copy",
  "cta",
  "palette",
  "typography",
  "layout",
  "meta",
  "timing",
  "visual",
  "pages",
] as const satisfies readonly ChangeKind[];
export const SEVERITIES = ["high", "medium", "low"] as const satisfies readonly Severity[];

export const KIND_LABEL: Record<ChangeKind, string> = {
  copy: "Copy",
  cta: "CTA",
  palette: "Palette",
  typography: "Typography",
  layout: "Layout",
  meta: "Meta",
  timing: "Timing",
  visual: "Visual",
  pages: "Pages",
};

export const SEVERITY_LABEL: Record<Severity, string> = { high: "High", medium: "Medium", low: "Low" };
/** An alert rule's threshold in words. */
export const MIN_SEVERITY_LABEL: Record<Severity, string> = { low: "Low and up", medium: "Medium and up", high: "High only" };
export const SEVERITY_COLOR = { high: "red", medium: "amber", low: "gray" } as const satisfies Record<Severity, string>;
const SEVERITY_RANK: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

export interface Filters {
  kinds: ReadonlySet<ChangeKind>;
  severities: ReadonlySet<Severity>;
  /** One website, or all. */
  targetId: string | null;
}

export type TargetChanges = ChangesResponse["targets"][number];

/** How many changes of each kind and severity (over the chosen website, before the kind/severity filters). */
export function countChanges(targets: readonly TargetChanges[], targetId: string | null = null) {
  const byKind = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  let total = 0;
  for (const t of targets) {
    if (targetId && t.targetId !== targetId) continue;
    for (const c of t.changes) {
      byKind[c.kind]++;
      bySeverity[c.severity]++;
      total++;
    }
  }
  return { byKind, bySeverity, total };
}

/** Empty kind/severity sets mean "all". Most severe first, the server's order within a severity. */
export function filterChanges(targets: readonly TargetChanges[], f: Filters): TargetChanges[] {
  return targets
    .filter((t) => !f.targetId || t.targetId === f.targetId)
    .map((t) => ({
      ...t,
      changes: t.changes
        .filter((c) => (f.kinds.size === 0 || f.kinds.has(c.kind)) && (f.severities.size === 0 || f.severities.has(c.severity)))
        .map((c, i) => [c, i] as const)
        .sort(([a, i], [b, j]) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || i - j)
        .map(([c]) => c),
    }));
}

/** A comma list from the URL ("copy,cta") as a set of known values. */
export function parseList<T extends string>(raw: string | null, known: readonly T[]): Set<T> {
  return new Set((raw ?? "").split(",").filter((v): v is T => (known as readonly string[]).includes(v)));
}

/** The completed run before `run` (what its changes are measured against). */
export function previousCompleted(runs: readonly RunDto[], run: RunDto): RunDto | null {
  return runs.filter((r) => r.status === "completed" && r.number < run.number).sort((a, b) => b.number - a.number)[0] ?? null;
}

// ---- evidence geometry --------------------------------------------------------------------------

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Frame {
  cssWidth: number;
  cssHeight: number;
}

/**
 * A screenshot's size in CSS px (the boxes' unit). The image may be taken at a device pixel ratio
 * above 1, which the captured height (CSS px) against the image height reveals.
 */
export function frameOf(s: { width: number; height: number; extraction: { capturedHeight: number } | null }, viewportWidth: number): Frame {
  const captured = s.extraction?.capturedHeight ?? 0;
  if (s.width > 0 && s.height > 0) {
    const ratio = captured > 0 ? s.height / captured : 1;
    const dpr = ratio >= 0.95 ? ratio : 1;
    return { cssWidth: s.width / dpr, cssHeight: s.height / dpr };
  }
  return { cssWidth: viewportWidth, cssHeight: captured > 0 ? captured : viewportWidth };
}

/** The smallest box holding all of them. */
export function union(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * The part of the page a crop shows: the box with a margin, at least `minHeight` tall and the full
 * page width when the box is wide, clipped to the page.
 */
export function cropAround(box: Box, frame: Frame, margin = 48, minHeight = 200): Box {
  const wide = box.width > frame.cssWidth * 0.5;
  const x0 = wide ? 0 : Math.max(0, box.x - margin * 2);
  const x1 = wide ? frame.cssWidth : Math.min(frame.cssWidth, box.x + box.width + margin * 2);
  let y0 = Math.max(0, box.y - margin);
  let y1 = Math.min(frame.cssHeight, box.y + box.height + margin);
  if (y1 - y0 < minHeight) {
    const grow = (minHeight - (y1 - y0)) / 2;
    y0 = Math.max(0, y0 - grow);
    y1 = Math.min(frame.cssHeight, y1 + grow);
  }
  // A crop taller than three screens says nothing: keep the top of the box in view.
  const maxHeight = Math.max(minHeight, (x1 - x0) * 1.5);
  if (y1 - y0 > maxHeight) y1 = y0 + maxHeight;
  return { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/** A box in percent of a crop (CSS `left/top/width/height`), clipped to it. */
export function percentIn(box: Box, crop: Box) {
  const x0 = Math.max(box.x, crop.x);
  const y0 = Math.max(box.y, crop.y);
  const x1 = Math.min(box.x + box.width, crop.x + crop.width);
  const y1 = Math.min(box.y + box.height, crop.y + crop.height);
  if (x1 <= x0 || y1 <= y0) return null;
  return {
    left: ((x0 - crop.x) / crop.width) * 100,
    top: ((y0 - crop.y) / crop.height) * 100,
    width: ((x1 - x0) / crop.width) * 100,
    height: ((y1 - y0) / crop.height) * 100,
  };
}
