// The run table as data: every state is reachable and can end, the end is final, working states
// all share the same exits, and what a state does not list is refused.
import { describe, expect, test } from "bun:test";
import {
  FINAL_STATE,
  IGNORE,
  INITIAL_STATES,
  IllegalTransition,
  RUN_EVENTS,
  RUN_STATES,
  RUN_TABLE,
  cellFor,
  type Move,
  type RunEventType,
  type RunState,
} from "#server/modules/comparisons/run/table";
import { TRANSITIONS } from "#server/modules/comparisons/run/transitions/index";

const moves = (state: RunState): [RunEventType, Move][] =>
  Object.entries(RUN_TABLE[state]).flatMap(([event, cell]) => (cell === IGNORE ? [] : [[event as RunEventType, cell as Move]]));
const successors = (state: RunState) => new Set(moves(state).flatMap(([, m]) => m.to));

function reachableFrom(starts: readonly RunState[]): Set<RunState> {
  const seen = new Set<RunState>(starts);
  const todo = [...starts];
  while (todo.length > 0) for (const next of successors(todo.pop()!)) if (!seen.has(next)) (seen.add(next), todo.push(next));
  return seen;
}

const WORKING: RunState[] = ["created", "capturing", "scoring", "finding"];
const ENDED: RunState[] = ["completed", "failed", "interrupted", "cancelled"];

describe("run table", () => {
  test("every state is reachable from a state a run is created in", () => {
    expect([...reachableFrom(INITIAL_STATES)].sort()).toEqual([...RUN_STATES].sort());
  });

  test("every state can reach the final state: no run is stuck by construction", () => {
    for (const state of RUN_STATES) expect(reachableFrom([state]).has(FINAL_STATE)).toBe(true);
  });

  test("the final state takes nothing", () => {
    expect(RUN_TABLE[FINAL_STATE]).toEqual({});
    for (const event of RUN_EVENTS) expect(() => cellFor(RUN_TABLE, FINAL_STATE, event)).toThrow(IllegalTransition);
  });

  test("an ended run never works again: it only closes, or turns cancelled when its comparison is deleted", () => {
    for (const state of ENDED) {
      const allowed = state === "cancelled" ? ["closed"] : ["cancelled", "closed"];
      expect([...successors(state)].every((s) => allowed.includes(s) || s === state)).toBe(true);
      expect(cellFor(RUN_TABLE, state, "drained")).toMatchObject({ to: ["closed"] });
    }
    // Self-moves of an ended state only clean up what arrives late.
    for (const state of ENDED)
      for (const [event, m] of moves(state)) if (m.to.includes(state)) expect([event, m.via]).toEqual(["pageCaptured", "discardPage"]);
  });

  test("every working state can be cancelled, interrupted by shutdown, and crash", () => {
    for (const state of WORKING) {
      expect(cellFor(RUN_TABLE, state, "cancel")).toMatchObject({ to: ["cancelled"] });
      expect(cellFor(RUN_TABLE, state, "interrupt")).toMatchObject({ to: ["interrupted"], via: "failInterrupted" });
      expect(cellFor(RUN_TABLE, state, "crash")).toMatchObject({ to: ["failing"], via: "beginFailing" });
    }
    // A crashed run keeps its own reason through a shutdown, and can still be deleted.
    expect(cellFor(RUN_TABLE, "failing", "interrupt")).toBe(IGNORE);
    expect(cellFor(RUN_TABLE, "failing", "cancel")).toMatchObject({ to: ["cancelled"] });
  });

  test("a run only waits to close in an ended state: working states never take 'drained'", () => {
    for (const state of [...WORKING, "orphaned", "failing"] as RunState[])
      expect(() => cellFor(RUN_TABLE, state, "drained")).toThrow(IllegalTransition);
  });

  test("events out of order are refused", () => {
    const illegal: [RunState, RunEventType][] = [
      ["created", "pageCaptured"],
      ["created", "recover"],
      ["orphaned", "launch"],
      ["capturing", "launch"],
      ["capturing", "found"],
      ["capturing", "allScored"],
      ["scoring", "allCaptured"],
      ["finding", "pageCaptured"],
      ["completed", "allCaptured"],
      ["completed", "crash"],
      ["failed", "settleAttempt"],
      ["cancelled", "launch"],
    ];
    for (const [state, event] of illegal) {
      expect(() => cellFor(RUN_TABLE, state, event)).toThrow(new IllegalTransition(state, event).message);
    }
  });

  test("starting work happens only where a run begins", () => {
    const takers = (event: RunEventType) => RUN_STATES.filter((s) => RUN_TABLE[s][event] !== undefined);
    expect(takers("launch")).toEqual(["created"]);
    expect(takers("recover")).toEqual(["orphaned"]);
  });

  test("the table and the transition functions match one to one; every event is used", () => {
    const named = new Set(RUN_STATES.flatMap((s) => moves(s).flatMap(([, m]) => (m.via ? [m.via] : []))));
    expect([...named].sort() as string[]).toEqual(Object.keys(TRANSITIONS).sort());
    const used = new Set(RUN_STATES.flatMap((s) => Object.keys(RUN_TABLE[s])));
    expect([...used].sort()).toEqual([...RUN_EVENTS].sort());
  });

  test("a move's targets are real states", () => {
    for (const state of RUN_STATES) for (const [, m] of moves(state)) for (const to of m.to) expect(RUN_STATES).toContain(to);
  });
});
