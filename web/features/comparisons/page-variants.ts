// Pages per site (issue 33): results hold one set of snapshots, scores and findings per page role
// and colour scheme. These pick one variant out of a run's data, list the variants present, and
// roll the roles up per pair of sites. Rows from before pages carry no role fields: they read as
// the home page in light mode.
import type { ColorScheme, PageRole, StepFailure, Viewport } from "#server/modules/capture/model";
import type { ComparisonDto, DiffDto, FindingDto, SnapshotDto, TargetDto } from "#server/modules/comparisons/model";
import { PAGE_ROLES } from "#web/lib/page-roles";
import { diffForPair, type Pair } from "./results-data";

/** The fields issue 33 adds to snapshots, diffs and findings; optional so old rows (and types) fit. */
interface Variant {
  role?: PageRole | null;
  colorScheme?: ColorScheme | null;
}

export const roleOf = (row: object): PageRole => (row as Variant).role ?? "home";
export const schemeOf = (row: object): ColorScheme => (row as Variant).colorScheme ?? "light";

/** Where a page's steps stopped, when they did (its screenshot then shows that moment, and nothing was measured). */
export const stepFailureOf = (s: SnapshotDto): StepFailure | null => (s as { step?: StepFailure | null }).step ?? null;

/** The page's path on its site, when the snapshot says. */
export const pathOf = (s: SnapshotDto): string | null => (s as { path?: string | null }).path ?? null;

/** A comparison's schemes; a DTO from before dark captures reads as light only. */
export const colorSchemesOf = (c: ComparisonDto): ColorScheme[] => (c.colorSchemes?.length ? c.colorSchemes : ["light"]);

export interface VariantData {
  snapshots: SnapshotDto[];
  diffs: DiffDto[];
  findings: FindingDto[];
}

/** The roles a run's snapshots hold, home first then in the roles' own order. */
export function rolesPresent(snapshots: SnapshotDto[]): PageRole[] {
  const seen = new Set(snapshots.map(roleOf));
  return PAGE_ROLES.filter((r) => seen.has(r));
}

/** Whether any snapshot is a dark variant. */
export const hasDark = (snapshots: SnapshotDto[]) => snapshots.some((s) => schemeOf(s) === "dark");

/** The role to show: the requested one when the run has it, else home, else the first present. */
export function chooseRole(present: PageRole[], requested: PageRole | null): PageRole {
  if (requested && present.includes(requested)) return requested;
  return present.includes("home") ? "home" : (present[0] ?? "home");
}

/** One role and scheme's snapshots, scores and findings: what the matrix, summary, findings and overlays show. */
export function variantSlice<D extends VariantData>(data: D, role: PageRole, scheme: ColorScheme): D {
  const keep = (row: object) => roleOf(row) === role && schemeOf(row) === scheme;
  return { ...data, snapshots: data.snapshots.filter(keep), diffs: data.diffs.filter(keep), findings: data.findings.filter(keep) };
}

export interface RollupCell {
  pair: Pair;
  /** Mean overall similarity over `roles`; undefined when the pair shares no scored role. */
  score: number | undefined;
  roles: PageRole[];
}

/**
 * The site-level roll-up: per pair of sites, the mean of the newest overall similarity of each role
 * both have a score for (a score exists only where both sites have the page), in one viewport and
 * scheme. The diagonal is null.
 */
export function rollupMatrix(targets: TargetDto[], diffs: DiffDto[], viewport: Viewport, scheme: ColorScheme): (RollupCell | null)[][] {
  const byRole = new Map<PageRole, DiffDto[]>();
  for (const d of diffs) {
    if (schemeOf(d) !== scheme || d.viewport !== viewport) continue;
    const role = roleOf(d);
    byRole.set(role, [...(byRole.get(role) ?? []), d]);
  }
  return targets.map((row) =>
    targets.map((col) => {
      if (row.id === col.id) return null;
      const pair: Pair = [row.id, col.id];
      const roles: PageRole[] = [];
      let sum = 0;
      for (const role of PAGE_ROLES) {
        const diff = diffForPair(byRole.get(role) ?? [], viewport, pair);
        if (!diff) continue;
        roles.push(role);
        sum += diff.overallSimilarity;
      }
      return { pair, roles, score: roles.length ? sum / roles.length : undefined };
    }),
  );
}
