// What one run carries from state to state. The table decides what may happen; this is what has
// happened so far. A run row (run history) keys on runId; trigger says who asked for it.
//
// A run captures every page of every site at every viewport in every colour scheme of the
// comparison. Pages are matched across sites by role (pricing with pricing) in lanes: one lane is
// a role at a viewport in a colour scheme, holding at most one page per site (the site's first of
// that role by position). Each lane is scored, timed and found about on its own; a site without the
// role is simply not in that lane. A site's further pages of a role it already has are captured in
// a lane of their own (found about, never paired).
import type {
  ColorScheme,
  ConsentPolicy,
  Extraction,
  Finding,
  PageRole,
  Snapshot,
  Step,
  StepFailure,
  Viewport,
} from "#server/modules/capture/model";
import type { GrayImage } from "#server/lib/image/image";
import type { EarlierSample, TimingSummary } from "#server/modules/capture/public";
import { DEFAULT_CONSENT_POLICY } from "#server/modules/capture/model";
import type { ComparisonProgress, RunTrigger } from "../model";
import type { DiffRow, FindingRow, PageRow, TargetRow } from "../repository";
import type { RunEventType } from "./table";
import type { RunSessions } from "./tools";

export const RUN_VIEWPORTS: Viewport[] = ["desktop", "mobile"];
export const INTERRUPTED_REASON = "Interrupted by a server restart — start the analysis again";
export const QUEUED_STAGE = "Waiting for a capture slot";
/** Captures in a run: every page (a comparison of home pages only: one a target) at every viewport, in every colour scheme. */
export const pagesInRun = (pages: number, colorSchemes = 1) => pages * RUN_VIEWPORTS.length * colorSchemes;

export type { RunTrigger };

/** A page of a site as the run captures it. */
export interface RunPage {
  readonly id: string;
  readonly role: PageRole;
  readonly path: string;
  /** The site's origin and the page's path. */
  readonly url: string;
  readonly steps: readonly Step[];
  /** 0: the site's home page (the target's own URL). */
  readonly position: number;
}

/** "desktop" for the home page in light (as runs before pages were keyed), else role/viewport/scheme and, for a page paired with none, its id. */
export type LaneKey = string;

/** A role at a viewport in a colour scheme: the pages of it that are paired and scored together. */
export interface Lane {
  readonly key: LaneKey;
  /** The lane's role and scheme without the viewport: findings are found over a group's lanes together. */
  readonly group: string;
  readonly role: PageRole;
  readonly viewport: Viewport;
  readonly colorScheme: ColorScheme;
  /** By target index: the site's page in this lane, or null when the site has none. */
  readonly pages: readonly (RunPage | null)[];
}

/** One capture of the run: a target (by its index in `targets`) in a lane. */
export interface PageKey {
  target: number;
  lane: LaneKey;
}
/** Captured (a Snapshot), or not: why, and for a page whose steps stopped, the screenshot of where (stored, never scored). */
export type PageOutcome = Snapshot | { reason: string; stoppedAt?: string };
export const isCaptured = (o: PageOutcome | undefined): o is Snapshot => o !== undefined && !("reason" in o);

/** A captured page: its screenshot hashed and placed on disk, with its extraction, before its snapshot row is written. */
export interface Capture {
  snapshotId: string;
  relPath: string;
  absolute: string;
  width: number;
  height: number;
  /** Of the PNG's bytes: the file is stored under this name (see files.adopt). */
  sha256: string;
  bytes: number;
  /** Null for a page whose steps stopped (`step`): the screenshot shows where, nothing was measured. */
  extraction: Extraction | null;
  step?: StepFailure;
  thumb?: GrayImage;
  earlierSamples?: EarlierSample[];
  /** Its worker stored it under `relPath` (a capture job): adopted there (files.adoptStored), with no file at `absolute`. */
  stored?: boolean;
}

export interface ViewportScoring {
  /** Captured pages of the lane, paired in target order; scored in that order, as many at once as the analyser takes. */
  pairs: (readonly [Snapshot, Snapshot])[];
  next: number;
  /** Pairs handed to the analyser that have not reported yet. */
  inFlight: number;
  diffs: DiffRow[];
  /** Every pair has reported (viewportScored was taken). */
  done: boolean;
}

/** A lane's extra timing loads, asked for once its every page is in (transitions/timing.ts). */
export interface ViewportTiming {
  pending: number;
  /** Every page that needed more loads has reported. */
  done: boolean;
}

export interface RunOutcome {
  status: "completed" | "failed";
  error: string | null;
  /** The database took it: false when the comparison had stopped running (deleted, or recovered by another process) or the write failed. */
  recorded: boolean;
}

export interface RunContext {
  readonly runId: string;
  readonly trigger: RunTrigger;
  /** The workspace that owns the comparison: its members hear the run's progress. */
  readonly ownerId: string;
  readonly comparisonId: string;
  readonly name: string;
  /** What the run's captures do about a consent banner (the comparison's setting when the run started). */
  readonly consent: ConsentPolicy;
  /** In createdAt order: pairs and findings follow it. */
  readonly targets: readonly TargetRow[];
  /** In capture order: desktop before mobile, light before dark, home first. */
  readonly lanes: readonly Lane[];
  progress: ComparisonProgress;
  /** Each capture's outcome once known, by lane then target index (a site not in the lane never has one). */
  readonly pages: Record<LaneKey, (PageOutcome | undefined)[]>;
  readonly scoring: Record<LaneKey, ViewportScoring>;
  readonly timing: Record<LaneKey, ViewportTiming>;
  findings: FindingRow[];
  /** The run's shared logins (RunTools.stepSessions), when the tools have them. */
  sessions: RunSessions | null;
  /** Why a crashed run failed, while that is being recorded. */
  failure: string | null;
  failureAttempts: number;
  outcome: RunOutcome | null;
}

export interface RunStart {
  ownerId: string;
  comparisonId: string;
  name: string;
  /** Given by the caller when it keeps a run row; otherwise made here. */
  runId?: string;
  trigger?: RunTrigger;
  /** Default: DEFAULT_CONSENT_POLICY. */
  consent?: ConsentPolicy;
  /** Default: light only. */
  colorSchemes?: readonly ColorScheme[];
}

const ROLE_RANK = new Map<string, number>(["home", "pricing", "features", "signup", "blog", "docs", "other"].map((r, i) => [r, i]));

/** The lane of a role at a viewport in a scheme (solo: a page paired with none). */
export function laneKey(role: PageRole, viewport: Viewport, scheme: ColorScheme, solo?: string): LaneKey {
  return [solo ? `${role}:${solo}` : role === "home" ? null : role, viewport, scheme === "light" ? null : scheme].filter(Boolean).join("/");
}

const toRunPage = (p: PageRow, site: TargetRow): RunPage => ({
  id: p.id,
  role: p.role,
  path: p.path,
  url: isSameAddress(site.url, p.path) ? site.url : `${new URL(site.url).origin}${p.path}`,
  steps: JSON.parse(p.steps) as Step[],
  position: p.position,
});

/** The home page's path is its target URL's own, so its captures keep the target's address to the byte. */
const isSameAddress = (url: string, path: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}${u.hash}` === path;
};

/**
 * The run's lanes: for each viewport, scheme and role (in that nesting, so desktop pages are in
 * first), the first page of the role of each site; then each further page of a role on its own.
 * Targets without pages (a caller that lists none) are captured at their own URL as their home page.
 */
export function planLanes(targets: readonly TargetRow[], pages: readonly PageRow[] | undefined, schemes: readonly ColorScheme[]): Lane[] {
  const perTarget = targets.map((t) => {
    const own = (pages ?? []).filter((p) => p.target_id === t.id).sort((a, b) => a.position - b.position);
    const list = own.length > 0 ? own.map((p) => toRunPage(p, t)) : [homeOf(t)];
    const seen = new Set<string>();
    const firsts: RunPage[] = [];
    const extras: RunPage[] = [];
    for (const p of list) {
      (seen.has(p.role) ? extras : firsts).push(p);
      seen.add(p.role);
    }
    return { firsts, extras };
  });
  const roles = [...new Set(perTarget.flatMap((t) => t.firsts.map((p) => p.role)))].sort(
    (a, b) => (ROLE_RANK.get(a) ?? 99) - (ROLE_RANK.get(b) ?? 99),
  );
  const lanes: Lane[] = [];
  for (const viewport of RUN_VIEWPORTS)
    for (const colorScheme of schemes) {
      for (const role of roles)
        lanes.push({
          key: laneKey(role, viewport, colorScheme),
          group: laneKey(role, "desktop", colorScheme),
          role,
          viewport,
          colorScheme,
          pages: perTarget.map((t) => t.firsts.find((p) => p.role === role) ?? null),
        });
      perTarget.forEach((t, i) => {
        for (const extra of t.extras)
          lanes.push({
            key: laneKey(extra.role, viewport, colorScheme, extra.id),
            group: laneKey(extra.role, "desktop", colorScheme, extra.id),
            role: extra.role,
            viewport,
            colorScheme,
            pages: targets.map((_, j) => (j === i ? extra : null)),
          });
      });
    }
  return lanes;
}

const homeOf = (t: TargetRow): RunPage => {
  const u = new URL(t.url);
  return { id: `home-${t.id}`, role: "home", path: `${u.pathname}${u.search}${u.hash}`, url: t.url, steps: [], position: 0 };
};

/** The lane's captures: (target index, page) of every site in it. */
export const membersOf = (lane: Lane) => lane.pages.flatMap((p, target) => (p ? [{ target, page: p }] : []));

export function newRunContext(
  start: RunStart & { runId: string },
  targets: readonly TargetRow[],
  progress: ComparisonProgress,
  pages?: readonly PageRow[],
): RunContext {
  const lanes = planLanes(targets, pages, start.colorSchemes?.length ? start.colorSchemes : ["light"]);
  const perLane = <T>(make: () => T) => Object.fromEntries(lanes.map((l) => [l.key, make()])) as Record<LaneKey, T>;
  return {
    runId: start.runId,
    trigger: start.trigger ?? "manual",
    ownerId: start.ownerId,
    comparisonId: start.comparisonId,
    name: start.name,
    consent: start.consent ?? DEFAULT_CONSENT_POLICY,
    targets,
    lanes,
    progress,
    pages: perLane(() => targets.map(() => undefined)),
    scoring: perLane(() => ({ pairs: [], next: 0, inFlight: 0, diffs: [], done: false })),
    timing: perLane(() => ({ pending: 0, done: false })),
    findings: [],
    sessions: null,
    failure: null,
    failureAttempts: 0,
    outcome: null,
  };
}

/** A lane by key (the run's own keys only). */
export const laneOf = (run: RunContext, key: LaneKey): Lane => {
  const lane = run.lanes.find((l) => l.key === key);
  if (!lane) throw new Error(`no lane ${key} in this run`);
  return lane;
};

/** The outcomes of one lane by target index (every lane has its list). */
export const outcomesOf = (run: RunContext, key: LaneKey) => run.pages[key]!;

/** Every capture of the lane is in. */
export const laneComplete = (run: RunContext, lane: Lane) =>
  membersOf(lane).every(({ target }) => outcomesOf(run, lane.key)[target] !== undefined);

/** The lanes' groups (role and scheme) in lane order, each once. */
export const groupsOf = (run: RunContext): string[] => [...new Set(run.lanes.map((l) => l.group))];

/** The run's snapshots of a group (all of them when none is named) in target order, each target's viewports in RUN_VIEWPORTS order. */
export const snapshotsOf = (run: RunContext, group?: string): Snapshot[] => {
  const lanes = run.lanes.filter((l) => group === undefined || l.group === group);
  return run.targets.flatMap((_, i) =>
    lanes.flatMap((l) => {
      const o = outcomesOf(run, l.key)[i];
      return isCaptured(o) ? [o] : [];
    }),
  );
};

/** All diffs, lane by lane. */
export const allDiffs = (run: RunContext): DiffRow[] => run.lanes.flatMap((l) => run.scoring[l.key]?.diffs ?? []);

export type RunEvent =
  | { type: "launch" }
  /** `reason`: what the failed run says (the restart reason when absent). */
  | { type: "recover"; reason?: string }
  | { type: "stage"; text: string }
  | { type: "pageCaptured"; page: PageKey; capture: Capture }
  | { type: "pageFailed"; page: PageKey; reason: string }
  | { type: "pageTimedOut"; page: PageKey }
  | { type: "allCaptured" }
  | { type: "pairScored"; lane: LaneKey; diff: DiffRow }
  | { type: "pairFailed"; lane: LaneKey; pair: string; error: unknown }
  /** Every pair of a lane (a role at a viewport in a scheme) has reported. */
  | { type: "viewportScored"; lane: LaneKey }
  /** timing: the page's timing over all its loads; null when the extra loads failed (its first load stands). */
  | { type: "pageTimed"; page: PageKey; timing: TimingSummary | null }
  | { type: "allScored" }
  /** Each finding with the lane group it was found in (laneGroup) (absent: the run's first group). */
  | { type: "found"; findings: (Finding & { laneGroup?: string })[] }
  | { type: "findingsFailed"; error: unknown }
  | { type: "cancel" }
  | { type: "interrupt" }
  | { type: "crash"; error: unknown }
  | { type: "settleAttempt" }
  | { type: "drained" };
export type EventOf<T extends RunEvent["type"]> = Extract<RunEvent, { type: T }>;

// The table's event names and these payloads must be the same set: a mismatch fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type EventsMatchTable = Assert<Same<RunEvent["type"], RunEventType>>;
type Assert<T extends true> = T;
