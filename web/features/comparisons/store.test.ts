import { beforeEach, expect, test } from "bun:test";
import { applyComparisonMessage, clearComparisonLive, useComparisonLive } from "./store";

beforeEach(() => useComparisonLive.setState({ byId: {} }));

test("progress and target statuses are recorded per comparison", () => {
  expect(
    applyComparisonMessage({
      type: "COMPARISON_PROGRESS",
      payload: {
        comparisonId: "c1",
        status: "running",
        progress: { done: 1, total: 4, stage: "Capturing Alpha" },
        targetId: "t1",
        targetStatus: "capturing",
      },
    }),
  ).toBe(true);
  const first = useComparisonLive.getState().byId.c1!;
  expect(first.progress).toEqual({ done: 1, total: 4, stage: "Capturing Alpha" });
  expect(first.targets).toEqual({ t1: "capturing" });

  applyComparisonMessage({
    type: "COMPARISON_STATUS",
    payload: { comparisonId: "c1", status: "running", progress: null, targetId: "t1", targetStatus: "completed" },
  });
  const second = useComparisonLive.getState().byId.c1!;
  expect(second.progress?.done).toBe(1); // a status-only message keeps progress while running
  expect(second.targets.t1).toBe("completed");
  expect(second.seq).toBeGreaterThan(first.seq);

  applyComparisonMessage({ type: "COMPARISON_STATUS", payload: { comparisonId: "c1", status: "completed", progress: null } });
  expect(useComparisonLive.getState().byId.c1!.progress).toBeNull();
  clearComparisonLive("c1");
  expect(useComparisonLive.getState().byId.c1).toBeUndefined();
});

test("other and malformed messages are ignored", () => {
  for (const msg of [
    null,
    "x",
    { type: "AGENT_UPDATE", payload: { comparisonId: "c1", status: "running" } },
    { type: "COMPARISON_PROGRESS", payload: { comparisonId: "c1", status: "exploded" } },
    { type: "COMPARISON_PROGRESS", payload: { comparisonId: 7, status: "running" } },
    { type: "COMPARISON_PROGRESS", payload: { comparisonId: "c1", status: "running", progress: { done: "1" } } },
  ])
    expect(applyComparisonMessage(msg)).toBe(false);
  expect(useComparisonLive.getState().byId).toEqual({});
});
