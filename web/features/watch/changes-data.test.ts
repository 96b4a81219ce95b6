import { describe, expect, test } from "bun:test";
import {
  countChanges,
  cropAround,
  filterChanges,
  frameOf,
  parseList,
  percentIn,
  previousCompleted,
  SEVERITIES,
  union,
} from "./changes-data";
import { changes, run } from "./test-utils";

describe("change view rules", () => {
  test("counts by kind and severity, over one website or all", () => {
    const all = countChanges(changes.targets);
    expect(all.total).toBe(3);
    expect(all.byKind).toMatchObject({ copy: 1, cta: 1, palette: 1, layout: 0 });
    expect(all.bySeverity).toEqual({ high: 1, medium: 1, low: 1 });
    expect(countChanges(changes.targets, "t2").total).toBe(0);
  });

  test("filters by kind, severity and website, most severe first; empty sets mean all", () => {
    const none = { kinds: new Set<never>(), severities: new Set<never>(), targetId: null };
    expect(filterChanges(changes.targets, none)[0]!.changes.map((c) => c.kind)).toEqual(["cta", "copy", "palette"]);
    const cta = filterChanges(changes.targets, { ...none, kinds: new Set(["cta"] as const) });
    expect(cta[0]!.changes.map((c) => c.kind)).toEqual(["cta"]);
    expect(cta[1]!.changes).toEqual([]);
    const low = filterChanges(changes.targets, { ...none, severities: new Set(["low"] as const) });
    expect(low[0]!.changes.map((c) => c.kind)).toEqual(["palette"]);
    expect(filterChanges(changes.targets, { ...none, targetId: "t2" }).map((t) => t.targetId)).toEqual(["t2"]);
  });

  test("URL lists keep known values only", () => {
    expect([...parseList("high,bogus,low", SEVERITIES)]).toEqual(["high", "low"]);
    expect(parseList(null, SEVERITIES).size).toBe(0);
  });

  test("the completed run before a run", () => {
    const runs = [run({ id: "r3", number: 3 }), run({ id: "r2", number: 2, status: "failed" }), run({ id: "r1", number: 1 })];
    expect(previousCompleted(runs, runs[0]!)?.id).toBe("r1");
    expect(previousCompleted(runs, runs[2]!)).toBeNull();
  });

  test("evidence geometry: frame at a device pixel ratio, crop around boxes, boxes in percent", () => {
    expect(frameOf({ width: 2880, height: 4000, extraction: { capturedHeight: 2000 } }, 1440)).toEqual({ cssWidth: 1440, cssHeight: 2000 });
    const frame = { cssWidth: 1440, cssHeight: 3000 };
    const box = union([
      { x: 100, y: 500, width: 100, height: 50 },
      { x: 300, y: 600, width: 100, height: 50 },
    ])!;
    expect(box).toEqual({ x: 100, y: 500, width: 300, height: 150 });
    const crop = cropAround(box, frame);
    expect(crop.x).toBe(4);
    expect(crop.y).toBeLessThanOrEqual(452);
    expect(crop.height).toBeGreaterThanOrEqual(200);
    const p = percentIn(box, crop)!;
    expect(p.left).toBeGreaterThan(0);
    expect(p.left + p.width).toBeLessThanOrEqual(100);
    // A full-width box crops the full page width; a box off the crop is not drawn.
    expect(cropAround({ x: 0, y: 0, width: 1400, height: 80 }, frame)).toMatchObject({ x: 0, width: 1440 });
    expect(percentIn({ x: 0, y: 2900, width: 10, height: 10 }, crop)).toBeNull();
  });
});
