// Interprets the run table for one run. Events are taken one at a time, each to completion: a
// transition function may wait for the database, raise follow-up events and spawn async work, and
// the next event waits until it is done. That work reports back later as events. So no two
// transitions ever interleave, and a late report meets whatever state the run is in by then: the
// table says what happens to it.
import type { RunContext, RunEvent } from "./context";
import type { RunIO, RunDeps } from "./io";
import { FINAL_STATE, IGNORE, RUN_TABLE, accepts, cellFor, type Cell, type RunState, type RunTable } from "./table";
import type { Transitions } from "./transitions/index";

interface Queued {
  event: RunEvent;
  taken?: () => void;
}

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
  #draining: Promise<void> = Promise.resolve();
  #inFlight = 0;
  /** Events waiting, each with what resolves its dispatcher's promise once it has been taken. */
  readonly #queue: Queued[] = [];
  /** What the transition in progress raised, queued once it is done. */
  #raised: RunEvent[] = [];
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
        this.#raised.push(event);
      },
      dispatch: (event) => void this.dispatch(event),
      spawn: (work) => this.#spawn(work),
    };
  }

  get state(): RunState {
    return this.#state;
  }

  /**
   * Takes an event (from the active runs, or from spawned work) after those before it, then
   * everything it raises, then looks at what is in flight. Resolves once this event has been taken
   * (its transition done, or the event refused); never rejects.
   */
  dispatch(event: RunEvent | null): Promise<void> {
    const taken = event ? new Promise<void>((resolve) => this.#queue.push({ event, taken: resolve })) : Promise.resolve();
    if (!this.#busy) {
      this.#busy = true;
      this.#draining = this.#drain();
    }
    return taken;
  }

  /** Resolves once no event is waiting or being taken (what was dispatched so far, and all it raised, is done). */
  async settled(): Promise<void> {
    while (this.#busy) await this.#draining;
  }

  async #drain() {
    try {
      for (;;) {
        while (this.#queue.length > 0) {
          const next = this.#queue.shift()!;
          try {
            await this.#take(next.event);
          } finally {
            next.taken?.();
          }
        }
        if (!this.#whenQuiet()) break;
      }
    } catch (e) {
      this.#log(`comparison run ${this.run.comparisonId}: the machine failed`, e);
    } finally {
      // In the same turn as the last look at the queue: an event dispatched from now on starts a new drain.
      this.#busy = false;
    }
  }

  /**
   * One event, start to finish. What the transition raises is taken next, before events reported
   * while it was working (those came after it, as they did when transitions were synchronous). A
   * transition that throws leaves the state as it was, drops what it raised, and raises crash.
   */
  async #take(event: RunEvent) {
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
    // Events queued before this one was taken stay ahead of what it raises.
    const ahead = this.#queue.length;
    this.#raised = [];
    try {
      const chosen = cell.via ? await this.#transitions[cell.via](this.run, event as never, this.#io) : undefined;
      const next = chosen ?? cell.to[0]!;
      if (!cell.to.includes(next)) throw new Error(`'${cell.via}' chose '${next}' from '${state}' on '${event.type}'`);
      this.#state = next;
      this.#queue.splice(ahead, 0, ...this.#raised.map((e) => ({ event: e })));
    } catch (e) {
      // What the failed transition raised never happened.
      this.#log(`comparison run ${this.run.comparisonId} crashed`, e);
      if (accepts(this.#table, state, "crash")) this.#queue.unshift({ event: { type: "crash", error: e } });
    } finally {
      this.#raised = [];
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
      this.#queue.push({ event: { type: "drained" } });
      return true;
    }
    // A working state with nothing in flight can never move again: end it rather than hang.
    if (!accepts(this.#table, this.#state, "crash")) return false;
    this.#log(`comparison run ${this.run.comparisonId} stalled in state '${this.#state}'`);
    this.#queue.push({ event: { type: "crash", error: new Error(`run stalled in state '${this.#state}'`) } });
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
    void running
      .catch((e) => this.#log(`comparison run ${this.run.comparisonId}: background work failed`, e))
      .finally(() => {
        this.#inFlight--;
        void this.dispatch(null);
      });
  }
}
