// The machine that interprets the table, driven with stand-in transition functions: events are
// taken one at a time, refused ones change nothing, a throwing transition becomes a crash, and a
// run closes only once nothing it started is in flight.
import { describe, expect, test } from "bun:test";
import { newRunContext, type RunContext, type RunEvent } from "#server/modules/comparisons/run/context";
import type { RunIO, RunDeps } from "#server/modules/comparisons/run/io";
import { RunMachine } from "#server/modules/comparisons/run/machine";
import type { RunState, TransitionName } from "#server/modules/comparisons/run/table";
import { TRANSITIONS, type Transitions } from "#server/modules/comparisons/run/transitions/index";

type Stub = (run: RunContext, event: RunEvent, io: RunIO) => RunState | void | Promise<RunState | void>;

function setup(overrides: Partial<Record<TransitionName, Stub>> = {}, initial: RunState = "created") {
  const taken: string[] = [];
  const logged: string[] = [];
  const transitions = Object.fromEntries(
    Object.keys(TRANSITIONS).map((name) => [
      name,
      (run: RunContext, event: RunEvent, io: RunIO) => {
        taken.push(`${name}:${event.type}`);
        return overrides[name as TransitionName]?.(run, event, io);
      },
    ]),
  ) as unknown as Transitions;
  const deps = { log: (msg: string) => logged.push(msg) } as unknown as RunDeps;
  const run = newRunContext({ ownerId: "u1", comparisonId: "c1", name: "Rivals", runId: "r1" }, [], { done: 0, total: 0, stage: "" });
  const machine = new RunMachine({ run, initial, deps, transitions });
  /** Dispatches, then waits until the machine has taken it and everything it raised. */
  const send = async (event: RunEvent) => {
    void machine.dispatch(event);
    await machine.settled();
  };
  return { machine, taken, logged, send };
}

/** Work the test finishes by hand. */
function pending() {
  let finish!: () => void;
  const promise = new Promise<void>((r) => (finish = r));
  return { promise, finish };
}

describe("run machine", () => {
  test("the happy path, event by event, ends closed with every step's function called once", async () => {
    const { machine, taken, send } = setup({
      checkCaptured: () => "scoring",
      announceLaunch: (_r, _e, io) => io.spawn(() => gate.promise),
    });
    const gate = pending();
    await send({ type: "launch" });
    expect(machine.state).toBe("capturing");
    await send({ type: "allCaptured" });
    await send({ type: "viewportScored", lane: "desktop" });
    await send({ type: "allScored" });
    await send({ type: "found", findings: [] });
    expect(machine.state).toBe("completed");
    gate.finish();
    await machine.done;
    expect(machine.state).toBe("closed");
    expect(taken).toEqual([
      "announceLaunch:launch",
      "checkCaptured:allCaptured",
      "checkScored:viewportScored",
      "startFindings:allScored",
      "settleCompleted:found",
    ]);
  });

  test("an event the state does not list is refused: nothing runs, the state stays, and it is logged", async () => {
    const gate = pending();
    const { machine, taken, logged, send } = setup({ announceLaunch: (_r, _e, io) => io.spawn(() => gate.promise) });
    await send({ type: "launch" });
    await send({ type: "found", findings: [] });
    await send({ type: "launch" });
    expect(machine.state).toBe("capturing");
    expect(taken).toEqual(["announceLaunch:launch"]);
    expect(logged).toEqual([
      "comparison run c1: a run in state 'capturing' cannot take 'found'",
      "comparison run c1: a run in state 'capturing' cannot take 'launch'",
    ]);
    gate.finish();
  });

  test("a transition that throws leaves its state, drops what it raised, and crashes the run", async () => {
    const gate = pending();
    const { machine, taken, logged, send } = setup({
      announceLaunch: (_r, _e, io) => io.spawn(() => gate.promise),
      countFailedPage: (_r, _e, io) => {
        io.raise({ type: "allCaptured" });
        throw new Error("disk on fire");
      },
      attemptFailure: () => "failed",
    });
    await send({ type: "launch" });
    await send({ type: "pageFailed", page: { target: 0, lane: "desktop" }, reason: "x" });
    expect(taken).toEqual(["announceLaunch:launch", "countFailedPage:pageFailed", "beginFailing:crash"]);
    expect(logged).toEqual(["comparison run c1 crashed"]);
    // beginFailing (a stand-in here) raised nothing, so the run waits in failing until something reports.
    expect(machine.state).toBe("failing");
    gate.finish();
  });

  test("a transition may only choose among the table's targets", async () => {
    const gate = pending();
    const { machine, taken, send } = setup({
      announceLaunch: (_r, _e, io) => io.spawn(() => gate.promise),
      checkCaptured: () => "completed",
    });
    await send({ type: "launch" });
    await send({ type: "allCaptured" });
    expect(machine.state).toBe("failing");
    expect(taken.at(-1)).toBe("beginFailing:crash");
    gate.finish();
  });

  test("an ended run closes only once its last work reports; late pages are discarded, late stages ignored", async () => {
    const capture = pending();
    const { machine, taken, send } = setup({ announceLaunch: (_r, _e, io) => io.spawn(() => capture.promise) });
    await send({ type: "launch" });
    await send({ type: "cancel" });
    expect(machine.state).toBe("cancelled");
    let closed = false;
    void machine.done.then(() => (closed = true));
    await send({ type: "stage", text: "Alpha · desktop: opening the page" });
    await send({
      type: "pageCaptured",
      page: { target: 0, lane: "desktop" },
      capture: {
        snapshotId: "s",
        relPath: "p",
        absolute: "/p",
        width: 1,
        height: 1,
        sha256: "0".repeat(64),
        bytes: 1,
        extraction: {} as never,
      },
    });
    await Bun.sleep(0);
    expect(closed).toBe(false);
    capture.finish();
    await machine.done;
    expect(machine.state).toBe("closed");
    expect(taken).toEqual(["announceLaunch:launch", "discardPage:pageCaptured", "removeLeftovers:drained"]);
  });

  test("a working state with nothing in flight cannot move again: the machine ends it as a crash", async () => {
    const { machine, taken, logged, send } = setup({ attemptFailure: () => "failed" });
    await send({ type: "launch" }); // the stand-in launches nothing
    expect(taken).toEqual(["announceLaunch:launch", "beginFailing:crash"]);
    expect(logged).toEqual(["comparison run c1 stalled in state 'capturing'"]);
    expect(machine.state).toBe("failing");
  });

  test("work spawned by a transition that reports synchronously is queued, not nested", async () => {
    const order: string[] = [];
    const { send } = setup({
      announceLaunch: (_r, _e, io) => {
        io.spawn(async () => {
          io.dispatch({ type: "stage", text: "first" });
          order.push("spawned returned");
          await new Promise(() => {}); // stays in flight
        });
        order.push("launch finished");
      },
      reportStage: () => void order.push("stage taken"),
    });
    await send({ type: "launch" });
    expect(order).toEqual(["spawned returned", "launch finished", "stage taken"]);
  });

  test("recovery: an orphaned run is failed and closes at once", async () => {
    const { machine, taken, send } = setup({}, "orphaned");
    await send({ type: "recover" });
    await machine.done;
    expect(machine.state).toBe("closed");
    expect(taken).toEqual(["failRecovered:recover"]);
  });
});
