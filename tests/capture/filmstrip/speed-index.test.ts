// Speed Index and visually complete on known frame sequences, as speedline (Lighthouse,
// WebPageTest) computes them: histograms without white pixels, progress against the last frame,
// SI = ∫(1 − progress) dt from navigation start.
import { describe, expect, test } from "bun:test";
import { encode } from "jpeg-js";
import { measureLoadVisuals } from "#server/modules/capture/filmstrip/load-visuals";
import {
  emptyHistogram,
  fastModeAllowance,
  frameProgress,
  histogramOf,
  speedIndexOf,
  visualProgress,
  type LoadFrame,
} from "#server/modules/capture/filmstrip/speed-index";

/** RGBA pixels: `painted` of them in `rgb`, the rest white. */
function pixels(total: number, painted: number, rgb: readonly [number, number, number]): Uint8Array {
  const out = new Uint8Array(total * 4).fill(255);
  for (let i = 0; i < painted; i++) out.set([...rgb, 255], i * 4);
  return out;
}

const frame = (ms: number, data: Uint8Array, width = 10, height = 10): LoadFrame => ({
  ms,
  histogram: () => histogramOf(data, width, height),
});

describe("histograms and progress", () => {
  test("white pixels (all channels ≥ 249) are left out; others count once per channel", () => {
    const h = histogramOf(pixels(4, 1, [10, 20, 30]), 2, 2);
    expect([h[10], h[256 + 20], h[512 + 30]]).toEqual([1, 1, 1]);
    expect(h.reduce((a, b) => a + b, 0)).toBe(3);
    // 249 in every channel is white; 248 in one is not.
    expect(histogramOf(new Uint8Array([249, 249, 249, 255]), 1, 1).reduce((a, b) => a + b, 0)).toBe(0);
    expect(histogramOf(new Uint8Array([248, 249, 249, 255]), 1, 1).reduce((a, b) => a + b, 0)).toBe(3);
  });

  test("progress is the share of the way from the first histogram to the last, in whole per cent", () => {
    const target = histogramOf(pixels(100, 40, [0, 0, 0]), 10, 10);
    const half = histogramOf(pixels(100, 20, [0, 0, 0]), 10, 10);
    const third = histogramOf(pixels(100, 13, [0, 0, 0]), 10, 10);
    expect(frameProgress(half, emptyHistogram(), target)).toBe(50);
    expect(frameProgress(third, emptyHistogram(), target)).toBe(32); // 13/40 floored
    expect(frameProgress(target, emptyHistogram(), target)).toBe(100);
    // Every frame alike (all white): complete.
    expect(frameProgress(emptyHistogram(), emptyHistogram(), emptyHistogram())).toBe(100);
  });

  test("a frame past the final one in a colour counts only up to the final count (progress can fall later)", () => {
    const target = histogramOf(pixels(100, 40, [0, 0, 0]), 10, 10);
    // 60 black pixels where the final frame has 40: capped at the 40, so 100 %, not 150 %.
    expect(frameProgress(histogramOf(pixels(100, 60, [0, 0, 0]), 10, 10), emptyHistogram(), target)).toBe(100);
    // A spinner's grey is nowhere in the final frame: it adds nothing.
    expect(frameProgress(histogramOf(pixels(100, 60, [128, 128, 128]), 10, 10), emptyHistogram(), target)).toBe(0);
  });

  test("fast mode's allowance: 5 % at 0 s, 3 % at 1 s, towards -1 % far apart", () => {
    expect(fastModeAllowance(0)).toBeCloseTo(5, 10);
    expect(fastModeAllowance(1000)).toBeCloseTo(3, 10);
    expect(fastModeAllowance(60_000)).toBeCloseTo(-1, 3);
  });
});

describe("Speed Index", () => {
  test("progress 0, 0.5, 1 at known times gives the exact integral of 1 − progress", () => {
    // 0 → 100 ms at 0 %, 100 → 300 ms at 50 %, complete at 300 ms: 100 × 1 + 200 × 0.5 = 200.
    expect(
      speedIndexOf([
        { ms: 0, progress: 0 },
        { ms: 100, progress: 50 },
        { ms: 300, progress: 100 },
      ]),
    ).toEqual({ speedIndexMs: 200, visuallyCompleteMs: 300, firstVisualChangeMs: 100 });
  });

  test("from real pixels: a white start, half the final frame at 100 ms, all of it at 300 ms", () => {
    const progress = visualProgress([frame(100, pixels(100, 20, [0, 0, 0])), frame(300, pixels(100, 40, [0, 0, 0]))]);
    expect(progress.map((p) => [p.ms, p.progress])).toEqual([
      [0, 0],
      [100, 50],
      [300, 100],
    ]);
    expect(speedIndexOf(progress)?.speedIndexMs).toBe(200);
  });

  test("a single final frame: nothing until it, then complete; SI is its time", () => {
    const progress = visualProgress([frame(640, pixels(100, 30, [200, 0, 0]))], { fastMode: true });
    expect(progress.map((p) => p.progress)).toEqual([0, 100]);
    expect(speedIndexOf(progress)).toEqual({ speedIndexMs: 640, visuallyCompleteMs: 640, firstVisualChangeMs: 640 });
  });

  test("non-monotonic progress counts as measured, and visually complete is the first time it reaches 100 %", () => {
    // Complete at 100 ms, falls to 50 % at 200 ms (a colour that goes away), complete again at 400 ms.
    const figures = speedIndexOf([
      { ms: 0, progress: 0 },
      { ms: 100, progress: 100 },
      { ms: 200, progress: 50 },
      { ms: 400, progress: 100 },
    ]);
    expect(figures).toEqual({ speedIndexMs: 100 + 0 + 200 * 0.5, visuallyCompleteMs: 100, firstVisualChangeMs: 100 });
  });

  test("fast mode leaves frames between two alike ones undecoded, with the earlier one's progress", () => {
    let decoded = 0;
    const counted = (ms: number, data: Uint8Array): LoadFrame => ({
      ms,
      histogram: () => {
        decoded++;
        return histogramOf(data, 10, 10);
      },
    });
    const done = pixels(100, 40, [0, 0, 0]);
    const frames = [counted(100, done), counted(150, done), counted(200, done), counted(250, done), counted(300, done)];
    const progress = visualProgress(frames, { fastMode: true });
    expect(progress.map((p) => p.progress)).toEqual([0, 100, 100, 100, 100, 100]);
    expect(progress.filter((p) => p.interpolated).length).toBeGreaterThan(0);
    expect(decoded).toBeLessThan(frames.length * 2);
    // Without fast mode every frame is computed.
    expect(visualProgress(frames).every((p) => !p.interpolated)).toBe(true);
  });
});

describe("a recorded load's JPEG frames", () => {
  const jpeg = (painted: number) => encode({ data: pixels(64 * 64, painted, [20, 40, 160]), width: 64, height: 64 }, 90).data;

  test("decoded, measured, and labelled with how", () => {
    const frames = [
      { ms: 50, data: jpeg(0) },
      { ms: 120, data: jpeg(64 * 32) },
      { ms: 120, data: jpeg(64 * 32) },
      { ms: 400, data: jpeg(64 * 64) },
    ];
    const v = measureLoadVisuals(frames, "trace");
    // Nothing until 120 ms, about half from 120 to 400 ms.
    expect(v.speedIndexMs).toBeGreaterThan(120 + 280 * 0.45);
    expect(v.speedIndexMs).toBeLessThan(120 + 280 * 0.55);
    expect(v.visuallyCompleteMs).toBe(400);
    expect(v.method).toContain("3 trace screenshots");
    expect(v.reason).toBeNull();
  });

  test("no frames, or nothing but white: null, with the reason", () => {
    expect(measureLoadVisuals([], "screencast")).toMatchObject({ speedIndexMs: null, visuallyCompleteMs: null, method: null });
    expect(measureLoadVisuals([], "screencast").reason).toContain("No frame");
    const blank = measureLoadVisuals([{ ms: 300, data: jpeg(0) }], "trace");
    expect(blank.speedIndexMs).toBeNull();
    expect(blank.reason).toContain("white");
  });

  test("an undecodable frame: null, with the reason", () => {
    const v = measureLoadVisuals([{ ms: 100, data: Buffer.from("not a jpeg") }], "trace");
    expect(v.speedIndexMs).toBeNull();
    expect(v.reason).toContain("decoded");
  });
});
