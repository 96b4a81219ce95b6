// The baseline comparison on synthetic screenshots (no browser): what is written where, what the
// masks cover, and which of the baseline's masks still count.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { parseConfig } from "#server/cli/check/config";
import type { SelectorBox } from "#server/cli/check/ignore-selectors";
import { compareWithBaseline } from "#server/cli/check/visual";
import type { Viewport } from "#server/modules/capture/model";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const W = 200;
const H = 300;
/** A white page with filled rectangles. */
function png(...rects: { x: number; y: number; w: number; h: number; rgb: [number, number, number] }[]): Uint8Array {
  const p = new PNG({ width: W, height: H });
  p.data.fill(255);
  for (const r of rects)
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) p.data.set([...r.rgb, 255], (y * W + x) * 4);
  return new Uint8Array(PNG.sync.write(p));
}

const config = (ignore: unknown = {}) =>
  parseConfig(
    JSON.stringify({
      site: { url: "http://127.0.0.1:9/", label: "Our Site" },
      competitors: [{ url: "http://127.0.0.1:9/b", label: "B" }],
      viewports: ["desktop"],
      budgets: { visual: { maxChangedShare: 0.01 } },
      ignore,
    }),
    "t.json",
  );

function setup() {
  const root = mkdtempSync(join(tmpdir(), "di-visual-"));
  dirs.push(root);
  const baselineDir = join(root, "baseline");
  const resultsDir = join(root, "results");
  const run = (shot: Uint8Array, cfg = config(), boxes: SelectorBox[] = []) =>
    compareWithBaseline({
      config: cfg,
      screenshots: new Map<Viewport, Uint8Array>([["desktop", shot]]),
      selectorBoxes: new Map([["desktop", boxes]]),
      baselineDir,
      resultsDir,
    })[0]!;
  return { baselineDir, resultsDir, run };
}

const base = { x: 0, y: 0, w: W, h: 40, rgb: [30, 60, 140] as [number, number, number] };

describe("compareWithBaseline", () => {
  test("the first run writes the baseline; the same page then scores 0 with no diff image", () => {
    const { baselineDir, resultsDir, run } = setup();
    const first = run(png(base));
    expect(first).toMatchObject({
      baselineWritten: true,
      changedShare: 0,
      diff: null,
      baseline: join(baselineDir, "our-site.desktop.png"),
    });
    expect(existsSync(join(resultsDir, "our-site.desktop.png"))).toBe(true);
    const second = run(png(base));
    expect(second).toMatchObject({ baselineWritten: false, changedShare: 0, diff: null });
  });

  test("a change is measured against the whole page and drawn in *.diff.png beside the results", () => {
    const { resultsDir, run } = setup();
    run(png(base));
    const changed = run(png(base, { x: 0, y: 100, w: 100, h: 60, rgb: [200, 20, 20] }));
    expect(changed.changedShare).toBeCloseTo((100 * 60) / (W * H), 3);
    expect(changed.regions).toHaveLength(1);
    expect(changed.regions[0]!.y).toBe(96); // cells of 8 px around rows 100..159
    expect(changed.diff).toBe(join(resultsDir, "our-site.desktop.diff.png"));
    const image = PNG.sync.read(Buffer.from(readFileSync(changed.diff!)));
    expect([image.width, image.height]).toEqual([W, H]);
    // The next clean run removes the stale diff image.
    run(png(base));
    expect(existsSync(join(resultsDir, "our-site.desktop.diff.png"))).toBe(false);
  });

  test("ignore regions and selector boxes are masked; a region for another viewport is not", () => {
    const { run } = setup();
    run(png(base));
    const red = { x: 20, y: 120, w: 50, h: 50, rgb: [200, 20, 20] as [number, number, number] };
    expect(run(png(base, red), config({ regions: [{ x: 10, y: 110, width: 70, height: 70 }] })).changedShare).toBe(0);
    expect(
      run(png(base, red), config({ regions: [{ x: 10, y: 110, width: 70, height: 70, viewport: "mobile" }] })).changedShare,
    ).toBeGreaterThan(0.03);
    const boxes = [{ selector: "#ad", x: 18, y: 118, width: 54, height: 54 }];
    expect(run(png(base, red), config({ selectors: ["#ad"] }), boxes).changedShare).toBe(0);
  });

  test("where an ignored element was in the baseline stays masked while the config still names its selector", () => {
    const { run } = setup();
    const at = (y: number) => ({ x: 20, y, w: 50, h: 40, rgb: [200, 20, 20] as [number, number, number] });
    // The baseline is taken with the ignored element at y=100; it has moved to y=200 since.
    run(png(base, at(100)), config({ selectors: ["#ad"] }), [{ selector: "#ad", x: 18, y: 98, width: 54, height: 44 }]);
    const moved = png(base, at(200));
    const now = [{ selector: "#ad", x: 18, y: 198, width: 54, height: 44 }];
    expect(run(moved, config({ selectors: ["#ad"] }), now).changedShare).toBe(0);
    // Once the config stops ignoring it, neither place is masked.
    expect(run(moved, config({ selectors: [] }), []).changedShare).toBeGreaterThan(0.05);
  });
});
