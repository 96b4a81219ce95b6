// Total Blocking Time as Lighthouse sums it: tasks over 50 ms between FCP and the window's end,
// each for its time beyond 50 ms, tasks that straddle an end clipped to the window.
import { expect, test } from "bun:test";
import { totalBlockingTime } from "#server/modules/capture/timing/blocking-time";

test("each long task counts for its time beyond 50 ms", () => {
  expect(
    totalBlockingTime(
      [
        { startMs: 500, durationMs: 120 },
        { startMs: 800, durationMs: 60 },
      ],
      400,
      2000,
    ),
  ).toBe(70 + 10);
});

test("tasks of 50 ms or less, before FCP or after the end do not count", () => {
  const tasks = [
    { startMs: 500, durationMs: 50 },
    { startMs: 100, durationMs: 200 }, // ends at 300, before FCP at 400
    { startMs: 2100, durationMs: 300 }, // starts after the end
  ];
  expect(totalBlockingTime(tasks, 400, 2000)).toBe(0);
});

test("a task straddling FCP or the end counts for its part inside, if that part is itself long", () => {
  expect(totalBlockingTime([{ startMs: 300, durationMs: 200 }], 400, 2000)).toBe(100 - 50);
  expect(totalBlockingTime([{ startMs: 1900, durationMs: 300 }], 400, 2000)).toBe(100 - 50);
  // 40 ms inside the window: not blocking there.
  expect(totalBlockingTime([{ startMs: 300, durationMs: 140 }], 400, 2000)).toBe(0);
});

test("an empty or backwards window is 0", () => {
  expect(totalBlockingTime([{ startMs: 500, durationMs: 500 }], 800, 800)).toBe(0);
  expect(totalBlockingTime([{ startMs: 500, durationMs: 500 }], 900, 800)).toBe(0);
});
