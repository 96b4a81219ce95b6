// Change detection's shapes: a change and its kinds, the changes API's query and answer, a run's
// change counts, and what change detection reads of the run history.
import { z } from "zod";
import { colorSchemeSchema, pageRoleSchema } from "#server/modules/capture/model";
import type { RunRow, SnapshotRow } from "#server/modules/comparisons/repository";

/** `pages`: a page of the site appeared in or disappeared from its sitemap or navigation (./pages.ts). */
export const changeKinds = ["copy", "cta", "palette", "typography", "layout", "meta", "timing", "visual", "pages"] as const;
export const changeKind = z.enum(changeKinds);
export type ChangeKind = z.infer<typeof changeKind>;

export const severities = ["low", "medium", "high"] as const;
export const severity = z.enum(severities);
export type Severity = z.infer<typeof severity>;

export const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const detectedChange = z.object({
  kind: changeKind,
  severity,
  /** For `pages` (a site's page set, not a capture): desktop. */
  viewport: z.enum(["desktop", "mobile"]),
  /** One line with the before and after values, e.g. `CTA “Start free” → “Book a demo”`. */
  summary: z.string(),
  /** The value before/after as shown in the summary; null when the thing was added/removed. */
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** Where to look: boxes in CSS px of the full-page screenshot of each side. */
  evidence: z.object({
    beforeBox: boxSchema.optional(),
    afterBox: boxSchema.optional(),
    /** For `visual`: the changed regions (after-side coordinates) and the share of the page that changed. */
    regions: z.array(boxSchema).optional(),
    changedShare: z.number().optional(),
    /** For `palette`: CIEDE2000 between the two colours. */
    deltaE: z.number().optional(),
    /** For `timing`: the usual range measured across the target's history. */
    usual: z.string().optional(),
    /** For `pages`: where the page was (before) or is (after) listed. */
    source: z.enum(["sitemap", "nav"]).optional(),
  }),
});
/** What a change is detected as; where it is on the site is added as it is stored or listed ({@link changeSchema}). */
export type DetectedChange = z.infer<typeof detectedChange>;

/** Which page of the site a change is on, with its role and path, and in which colour scheme. */
export const changePlace = z.object({
  /**
   * The site's page the change is on. For `pages`: the site's page at that path when it is one of
   * the watched pages, else null (a page only its sitemap or navigation lists).
   */
  pageId: z.string().nullable(),
  role: pageRoleSchema,
  path: z.string(),
  colorScheme: colorSchemeSchema,
});
export type ChangePlace = z.infer<typeof changePlace>;

/** The server sets the place on every change it lists or alerts about; alert jobs queued before pages have none (read as home, light). */
export const changeSchema = detectedChange.extend(changePlace.partial().shape);
export type Change = z.infer<typeof changeSchema>;

export const severityRank: Record<Severity, number> = { low: 0, medium: 1, high: 2 };

// ---- the changes endpoints (./index.ts) ----

/** What one run changed on one target: the unit the changes API serves and an alert lists. */
export const targetChanges = z.object({
  targetId: z.string(),
  label: z.string(),
  url: z.string(),
  changes: z.array(changeSchema),
});
export type TargetChanges = z.infer<typeof targetChanges>;

/** GET /api/comparisons/:id/changes?from=<runId>&to=<runId> (default: the last two completed runs). */
const ALL = "all";
/** Which page(s): a page id, a role (each site's page of that role), or `all`; default `home`. */
const pageParam = z.string().min(1).max(100).optional();
/** Which colour scheme: `light` (default), `dark` or `all`. */
const schemeParam = z.enum(["light", "dark", ALL], { error: 'colorScheme must be "light", "dark" or "all"' }).optional();

/**
 * GET /api/comparisons/:id/changes?from=<runId>&to=<runId>&page=&colorScheme= (default: the last two
 * completed runs, the home page, light). A change of kind `pages` is about the whole site and is
 * listed whatever page is asked for.
 */
export const changesQuery = z.object({
  from: z.string().max(100).optional(),
  to: z.string().max(100).optional(),
  page: pageParam,
  colorScheme: schemeParam,
});
export type ChangesQuery = z.infer<typeof changesQuery>;

export const changesResponse = z.object({
  from: z.string(),
  to: z.string(),
  targets: z.array(targetChanges),
});
export type ChangesResponse = z.infer<typeof changesResponse>;

/**
 * GET /api/comparisons/:id/changes/visual?targetId=&viewport=&page=&colorScheme=&from=&to= → image/png
 * (the heat map); `page` is a page id or a role of the target's pages (default `home`), `colorScheme`
 * light (default) or dark.
 */
export const visualQuery = z.object({
  targetId: z.string({ error: "targetId is required" }).min(1, "targetId is required").max(100),
  viewport: z.enum(["desktop", "mobile"], { error: 'viewport must be "desktop" or "mobile"' }),
  page: z.string().min(1).max(100).optional(),
  colorScheme: colorSchemeSchema.optional(),
  from: z.string().max(100).optional(),
  to: z.string().max(100).optional(),
});
export type VisualQuery = z.infer<typeof visualQuery>;

/** A completed run's changes against the completed run before it, as they are handed on to alerts. */
export interface RunChanges {
  ownerId: string;
  comparisonId: string;
  runId: string;
  fromRunId: string;
  runNumber: number;
  targets: TargetChanges[];
}

const countsOf = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<K, z.ZodNumber>);

/** A run's stored changes counted by kind and by severity (every key present, zero when none). */
export const runChangeCounts = z.object({
  total: z.number().int(),
  byKind: countsOf(changeKinds),
  bySeverity: countsOf(severities),
});
export type RunChangeCounts = z.infer<typeof runChangeCounts>;

/**
 * What change detection reads of the run history (the history module provides it): runs and their
 * snapshots, and the ownership checks that answer 404 for another user's ids.
 */
export interface RunReads {
  ownedComparison(ownerId: string, comparisonId: string): Promise<unknown>;
  ownedRun(ownerId: string, comparisonId: string, runId: string): Promise<RunRow>;
  findRun(runId: string, comparisonId: string, ownerId: string): Promise<RunRow | null>;
  lastCompletedRuns(comparisonId: string, ownerId: string, n: number): Promise<RunRow[]>;
  completedRunBefore(comparisonId: string, number: number): Promise<RunRow | null>;
  runSnapshots(runId: string, ownerId: string): Promise<SnapshotRow[]>;
}
