// Interprets the run table for one run. Events are taken one at a time, each to completion:
// a transition function runs synchronously (bun:sqlite is synchronous), may raise follow-up events
// and spawn async work, and that work reports back later as events. So no two transitions ever
// interleave, and a late report meets whatever state the run is in by then: the table says what
// happens to it.
import type { RunContext, RunEvent } from "./context";
import type { RunIO, RunDeps } from "./io";
import { FINAL_STATE, IGNORE, RUN_TABLE, accepts, cellFor, type Cell, type RunState, type RunTable } from "./table";
import type { Transitions } from "./transitions/index";

export interface RunMachineOptions {
  run: RunContext;
  initial: RunState;
  deps: RunDeps;
  transitions: Transitions;
  table?: RunTable;
}

export class RunMachine {
  readonly run: RunContext;
  /** Resolves once the run is closed and nothing it started is still running. */
  readonly done: Promise<void>;
  #state: RunState;
  #busy = false;
  #inFlight = 0;
  readonly #queue: RunEvent[] = [];
  readonly #table: RunTable;
  readonly #transitions: Transitions;
  readonly #io: RunIO;
  readonly #log: RunDeps["log"];
  #finish!: () => void;

  constructor(opts: RunMachineOptions) {
    this.run = opts.run;
    this.#state = opts.initial;
    this.#table = opts.table ?? RUN_TABLE;
    this.#transitions = opts.transitions;
    this.#log = opts.deps.log;
    this.done = new Promise<void>((resolve) => (this.#finish = resolve));
    this.#io = {
      deps: opts.deps,
      raise: (event) => {
        this.#queue.push(event);
      },
      dispatch: (event) => this.dispatch(event),
      spawn: (work) => this.#spawn(work),
    };
  }

  get state(): RunState {
    return this.#state;
  }

  /** Takes an event (from the active runs, or from spawned work) and everything it raises, then looks at what is in flight. */
  dispatch(event: RunEvent | null) {
    if (event) this.#queue.push(event);
    if (this.#busy) return;
    this.#busy = true;
    try {
      for (;;) {
        while (this.#queue.length > 0) this.#take(this.#queue.shift()!);
        if (!this.#whenQuiet()) break;
      }
    } finally {
      this.#busy = false;
    }
  }

  /** One event, start to finish. A transition that throws leaves the state as it was and raises crash. */
  #take(event: RunEvent) {
    const state = this.#state;
    let cell: Cell;
    try {
      cell = cellFor(this.#table, state, event.type);
    } catch (e) {
      // A bug, not a fault of the website: say so, and keep the run where it is.
      this.#log(`comparison run ${this.run.comparisonId}: ${e instanceof Error ? e.message : e}`);
      return;
    }
    if (cell === IGNORE) return;
    const before = this.#queue.length;
    try {
      const chosen = cell.via ? this.#transitions[cell.via](this.run, event as never, this.#io) : undefined;
      const next = chosen ?? cell.to[0]!;
      if (!cell.to.includes(next)) throw new Error(`'${cell.via}' chose '${next}' from '${state}' on '${event.type}'`);
      this.#state = next;
    } catch (e) {
      this.#queue.length = before; // what the failed transition raised never happened
      this.#log(`comparison run ${this.run.comparisonId} crashed`, e);
      if (accepts(this.#table, state, "crash")) this.#queue.unshift({ type: "crash", error: e });
    }
  }

  /** With the queue empty: close, drain, or catch a stall. True when that queued another event. */
  #whenQuiet(): boolean {
    if (this.#inFlight > 0) return false;
    if (this.#state === FINAL_STATE) {
      this.#finish();
      return false;
    }
    if (accepts(this.#table, this.#state, "drained")) {
      this.#queue.push({ type: "drained" });
      return true;
    }
    // A working state with nothing in flight can never move again: end it rather than hang.
    if (!accepts(this.#table, this.#state, "crash")) return false;
    this.#log(`comparison run ${this.run.comparisonId} stalled in state '${this.#state}'`);
    this.#queue.push({ type: "crash", error: new Error(`run stalled in state '${this.#state}'`) });
    return true;
  }

  #spawn(work: () => Promise<unknown>) {
    this.#inFlight++;
    let running: Promise<unknown>;
    try {
      running = work();
    } catch (e) {
      running = Promise.reject(e);
    }
    running
      .catch((e) => this.#log(`comparison run ${this.run.comparisonId}: background work failed`, e))
      .finally(() => {
        this.#inFlight--;
        this.dispatch(null);
      });
  }
}
