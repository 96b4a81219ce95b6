// Every transition function the table names, by name. The type makes a name without a function
// (or a function without a name) a compile error.
import type { RunContext } from "../context";
import type { RunIO } from "../io";
import type { RunState, TransitionName } from "../table";
import { announceLaunch, checkCaptured, countFailedPage, countTimedOutPage, discardPage, reportStage, storePage } from "./capture";
import {
  attemptFailure,
  beginFailing,
  failInterrupted,
  failRecovered,
  removeLeftovers,
  settleCompleted,
  settleWithoutFindings,
} from "./end";
import { checkScored, keepScore, markScored, skipPair, startFindings } from "./score";
import { checkTimed, keepTiming } from "./timing";

export type Transitions = {
  readonly [N in TransitionName]: (run: RunContext, event: never, io: RunIO) => RunState | void | Promise<RunState | void>;
};

export const TRANSITIONS: Transitions = {
  announceLaunch,
  failRecovered,
  reportStage,
  storePage,
  countFailedPage,
  countTimedOutPage,
  checkCaptured,
  keepScore,
  skipPair,
  markScored,
  checkScored,
  keepTiming,
  checkTimed,
  startFindings,
  settleCompleted,
  settleWithoutFindings,
  failInterrupted,
  beginFailing,
  attemptFailure,
  discardPage,
  removeLeftovers,
};
