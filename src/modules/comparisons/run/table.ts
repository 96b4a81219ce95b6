// The whole lifecycle of a comparison run, in one table. Rows are states, columns are events, and
// each cell names the state(s) the event may lead to and the transition function that does the
// work (transitions/*.ts). An event a state does not list is illegal there and is refused;
// IGNORE marks a late event the state expects and drops on purpose (work still in flight when
// the run ended). This file is pure data: the machine (machine.ts) interprets it.

export const RUN_STATES = [
  "created", // start() made it; the service has already marked the comparison running
  "orphaned", // found 'running' at boot with no run in this process: a crash or restart lost it
  "capturing", // pages are in the capture queue; a viewport's pairs are scored as soon as its pages are in
  "scoring", // every page is in; the last pairs are being scored, and pages a timing finding could be about loaded again
  "finding", // the findings step is writing findings
  "failing", // the run crashed; recording the failure (retried while the disk is full)
  "completed", // results stored; waiting for in-flight work to drain
  "failed", // failed and recorded (or given up); draining
  "interrupted", // ended by shutdown or boot recovery with the restart reason; draining
  "cancelled", // its comparison was deleted: nothing more is written; draining
  "closed", // nothing left in flight: the run is gone
] as const;
export type RunState = (typeof RUN_STATES)[number];

export const RUN_EVENTS = [
  "launch",
  "recover",
  "stage", // a capture reported what it is doing
  "pageCaptured",
  "pageFailed",
  "pageTimedOut", // the run's backstop on one capture ran out
  "allCaptured",
  "pairScored",
  "pairFailed", // threw, returned nonsense, or ran out of time
  "viewportScored",
  "pageTimed", // a page's extra timing loads are in (or failed)
  "allScored",
  "found",
  "findingsFailed", // threw or ran out of time
  "cancel", // the comparison is being deleted
  "interrupt", // graceful shutdown
  "crash", // a transition threw
  "settleAttempt", // try again to record a crashed run's failure
  "drained", // the machine saw nothing left in flight in a state that accepts this
] as const;
export type RunEventType = (typeof RUN_EVENTS)[number];

/** The transition functions, by name; transitions/index.ts implements each one. */
export type TransitionName =
  | "announceLaunch"
  | "failRecovered"
  | "reportStage"
  | "storePage"
  | "countFailedPage"
  | "countTimedOutPage"
  | "checkCaptured"
  | "keepScore"
  | "skipPair"
  | "markScored"
  | "checkScored"
  | "keepTiming"
  | "checkTimed"
  | "startFindings"
  | "settleCompleted"
  | "settleWithoutFindings"
  | "failInterrupted"
  | "beginFailing"
  | "attemptFailure"
  | "discardPage"
  | "removeLeftovers";

/** A legal move: where the event may lead, and the function that decides among `to` and does the work. */
export interface Move {
  readonly to: readonly RunState[];
  readonly via: TransitionName | null;
}
export const IGNORE = "ignore" as const;
export type Cell = Move | typeof IGNORE;
export type RunTable = { readonly [S in RunState]: Partial<Readonly<Record<RunEventType, Cell>>> };

const go = (to: RunState | readonly RunState[], via: TransitionName | null = null): Move => ({
  to: typeof to === "string" ? [to] : to,
  via,
});

/** Every working state can be cancelled, interrupted by shutdown, or crash. */
const EXITS = {
  cancel: go("cancelled"),
  interrupt: go("interrupted", "failInterrupted"),
  crash: go("failing", "beginFailing"),
} as const;

/** What captures and scoring still in flight report after the run ended: files are removed, the rest dropped. */
const late = (self: RunState) =>
  ({
    stage: IGNORE,
    pageCaptured: go(self, "discardPage"),
    pageFailed: IGNORE,
    pageTimedOut: IGNORE,
    pairScored: IGNORE,
    pairFailed: IGNORE,
    pageTimed: IGNORE,
    interrupt: IGNORE,
  }) as const;

/** An ended run closes once nothing is in flight; deleting its comparison meanwhile still cleans up. */
const ended = (self: RunState) =>
  ({
    ...late(self),
    cancel: go("cancelled"),
    drained: go("closed"),
  }) as const;

export const RUN_TABLE: RunTable = {
  created: {
    launch: go("capturing", "announceLaunch"),
    ...EXITS,
  },
  orphaned: {
    recover: go("interrupted", "failRecovered"),
  },
  capturing: {
    stage: go("capturing", "reportStage"),
    pageCaptured: go("capturing", "storePage"),
    pageFailed: go("capturing", "countFailedPage"),
    pageTimedOut: go("capturing", "countTimedOutPage"),
    pairScored: go("capturing", "keepScore"),
    pairFailed: go("capturing", "skipPair"),
    viewportScored: go("capturing", "markScored"),
    pageTimed: go("capturing", "keepTiming"),
    allCaptured: go(["scoring", "failed"], "checkCaptured"),
    ...EXITS,
  },
  scoring: {
    stage: IGNORE, // a capture that timed out may still report; its page is already counted
    pairScored: go("scoring", "keepScore"),
    pairFailed: go("scoring", "skipPair"),
    viewportScored: go("scoring", "checkScored"),
    pageTimed: go("scoring", "checkTimed"),
    allScored: go("finding", "startFindings"),
    ...EXITS,
  },
  finding: {
    stage: IGNORE,
    found: go("completed", "settleCompleted"),
    findingsFailed: go("completed", "settleWithoutFindings"),
    ...EXITS,
  },
  failing: {
    ...late("failing"),
    settleAttempt: go(["failing", "failed"], "attemptFailure"),
    cancel: go("cancelled"),
  },
  completed: ended("completed"),
  failed: ended("failed"),
  interrupted: ended("interrupted"),
  cancelled: {
    ...late("cancelled"),
    cancel: IGNORE,
    settleAttempt: IGNORE, // a retry timer set while failing
    drained: go("closed", "removeLeftovers"),
  },
  closed: {},
};

/** States a run is created in. */
export const INITIAL_STATES: readonly RunState[] = ["created", "orphaned"];
/** The one state nothing leaves. */
export const FINAL_STATE: RunState = "closed";

export class IllegalTransition extends Error {
  constructor(
    readonly state: RunState,
    readonly event: RunEventType,
  ) {
    super(`a run in state '${state}' cannot take '${event}'`);
  }
}

/** The table's answer for one state and event; throws IllegalTransition when the state does not list it. */
export function cellFor(table: RunTable, state: RunState, event: RunEventType): Cell {
  const cell = table[state][event];
  if (!cell) throw new IllegalTransition(state, event);
  return cell;
}

/** True when the state listed the event (as a move or as IGNORE). */
export const accepts = (table: RunTable, state: RunState, event: RunEventType) => table[state][event] !== undefined;
