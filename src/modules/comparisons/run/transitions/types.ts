import type { EventOf, RunContext, RunEvent } from "../context";
import type { RunIO } from "../io";
import type { RunState } from "../table";

/** Does one move's work (waiting for the database when it writes); returns the next state when the table offers a choice (else the only one is taken). */
export type Transition<E extends RunEvent["type"]> = (
  run: RunContext,
  event: EventOf<E>,
  io: RunIO,
) => RunState | void | Promise<RunState | void>;
