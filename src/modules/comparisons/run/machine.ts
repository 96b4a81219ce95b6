// Interprets the run table for one run. Events are taken one at a time, each to completion:
// a transition function runs synchronously (bun:sqlite is synchronous), may raise follow-up events
// and spawn async work, and that work reports back later as events. So no two transitions ever
// interleave, and a late report meets whatever state the run is in by then: the table says what
// happens to it.
import type { RunContext, RunEvent } from "./context";
import type { RunIO, RunnerDeps } from "./io";
import { FINAL_STATE, IGNORE, RUN_TABLE, accepts, type RunState, type RunTable } from "./table";
import type { Transitions } from "./transitions/index";

export interface RunMachine {
  readonly run: RunContext;
  readonly state: RunState;
  /** Takes an event from outside (the runner) or from spawned work. */
  dispatch(event: RunEvent): void;
  /** Resolves once the run is closed and nothing it started is still running. */
  readonly done: Promise<void>;
}

export function runMachine(opts: {
  run: RunContext;
  initial: RunState;
  deps: RunnerDeps;
  transitions: Transitions;
  table?: RunTable;
}): RunMachine {
  const { run, deps, transitions } = opts;
  const table = opts.table ?? RUN_TABLE;
  const log = deps.log;
  let state = opts.initial;
  let busy = false;
  let inFlight = 0;
  const queue: RunEvent[] = [];
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const io: RunIO = {
    deps,
    raise: (event) => queue.push(event),
    dispatch: (event) => dispatch(event),
    spawn(work) {
      inFlight++;
      let running: Promise<unknown>;
      try {
        running = work();
      } catch (e) {
        running = Promise.reject(e);
      }
      running
        .catch((e) => log(`comparison run ${run.comparisonId}: background work failed`, e))
        .finally(() => {
          inFlight--;
          dispatch(null);
        });
    },
  };

  /** One event, start to finish. A transition that throws leaves the state as it was and raises crash. */
  function take(event: RunEvent) {
    const cell = table[state][event.type];
    if (cell === undefined) {
      // A bug, not a fault of the website: say so, and keep the run where it is.
      log(`comparison run ${run.comparisonId}: '${event.type}' is not allowed in state '${state}'`);
      return;
    }
    if (cell === IGNORE) return;
    const before = queue.length;
    try {
      const chosen = cell.via ? transitions[cell.via](run, event as never, io) : undefined;
      const next = chosen ?? cell.to[0]!;
      if (!cell.to.includes(next)) throw new Error(`'${cell.via}' chose '${next}' from '${state}' on '${event.type}'`);
      state = next;
    } catch (e) {
      queue.length = before; // what the failed transition raised never happened
      log(`comparison run ${run.comparisonId} crashed`, e);
      if (accepts(table, state, "crash")) queue.unshift({ type: "crash", error: e });
    }
  }

  /** Takes the event (null: only re-check) and everything it raises, then looks at what is in flight. */
  function dispatch(event: RunEvent | null) {
    if (event) queue.push(event);
    if (busy) return;
    busy = true;
    try {
      for (;;) {
        while (queue.length > 0) take(queue.shift()!);
        if (inFlight > 0) break;
        if (state === FINAL_STATE) {
          finish();
          break;
        }
        if (accepts(table, state, "drained")) {
          queue.push({ type: "drained" });
          continue;
        }
        // A working state with nothing in flight can never move again: end it rather than hang.
        if (accepts(table, state, "crash")) {
          log(`comparison run ${run.comparisonId} stalled in state '${state}'`);
          queue.push({ type: "crash", error: new Error(`run stalled in state '${state}'`) });
          continue;
        }
        break;
      }
    } finally {
      busy = false;
    }
  }

  return {
    run,
    get state() {
      return state;
    },
    dispatch: (event) => dispatch(event),
    done,
  };
}
