import { expect, test } from "bun:test";
import type { DiffDto, FindingDto } from "#server/modules/comparisons/model";
import { asPercent, choosePair, diffForPair, findingsForPair, latestSnapshots } from "./results-data";
import { snapshot, target } from "./test-fixtures";

const diff = (id: string, a: string, b: string, overall: number, over: Partial<DiffDto> = {}): DiffDto => ({
  id,
  comparisonId: "c1",
  viewport: "desktop",
  targetAId: a,
  targetBId: b,
  createdAt: "2025-01-01T00:20:00.000Z",
  colorSimilarity: 0.5,
  layoutSimilarity: 0.5,
  contentSimilarity: 0.5,
  overallSimilarity: overall,
  components: {},
  ...over,
});

test("the latest snapshot by capturedAt stands for a site, per viewport", () => {
  const shots = latestSnapshots(
    [
      snapshot("old", "t1", "desktop", { capturedAt: "2025-01-01T00:00:00Z" }),
      snapshot("new", "t1", "desktop", { capturedAt: "2025-01-02T00:00:00Z" }),
      snapshot("mob", "t1", "mobile"),
      snapshot("b", "t2", "desktop"),
    ],
    "desktop",
  );
  expect([...shots.entries()].map(([t, s]) => [t, s.id])).toEqual([
    ["t1", "new"],
    ["t2", "b"],
  ]);
});

test("the pair: requested when valid, else first two with screenshots in creation order", () => {
  const targets = [target("t3", "Gamma"), target("t1", "Alpha"), target("t2", "Beta")];
  const shots = latestSnapshots([snapshot("a", "t1", "desktop"), snapshot("c", "t3", "desktop")], "desktop");
  expect(choosePair(targets, shots)).toEqual(["t1", "t3"]);
  expect(choosePair(targets, shots, ["t2", "t3"])).toEqual(["t2", "t3"]);
  expect(choosePair(targets, shots, ["nope", "t1"])).toEqual(["t3", "t1"]);
  expect(choosePair(targets, shots, ["t1", "t1"])).toEqual(["t1", "t3"]);
  expect(choosePair([target("t1", "Alpha")], shots)).toBeNull();
});

test("scores come from this pair's newest diff in either order, not simply the first diff", () => {
  const diffs = [
    diff("d12", "t1", "t2", 0.1),
    diff("d13", "t1", "t3", 0.3, { createdAt: "2025-01-01T00:00:00Z" }),
    diff("d31", "t3", "t1", 0.33),
    diff("m13", "t1", "t3", 0.9, { viewport: "mobile" }),
  ];
  expect(diffForPair(diffs, "desktop", ["t3", "t1"])?.id).toBe("d31");
  expect(diffForPair(diffs, "mobile", ["t1", "t3"])?.id).toBe("m13");
  expect(diffForPair(diffs, "mobile", ["t1", "t2"])).toBeNull();
});

test("findings about the two sites on screen, most severe first", () => {
  const f = (id: string, targetId: string, severity: FindingDto["severity"], viewport: FindingDto["viewport"] = "desktop"): FindingDto => ({
    id,
    group: "design",
    severity,
    targetId,
    viewport,
    title: id,
    evidence: {},
    fix: "",
    source: "rules",
  });
  const list = [f("low", "t1", "low"), f("other", "t3", "high"), f("high", "t2", "high"), f("mob", "t1", "high", "mobile")];
  expect(findingsForPair(list, "desktop", ["t1", "t2"]).map((x) => x.id)).toEqual(["high", "low"]);
});

test("percentages", () => {
  expect(asPercent(0.873)).toBe("87%");
  expect(asPercent(1)).toBe("100%");
  expect(asPercent(0)).toBe("0%");
  expect(asPercent(62.4)).toBe("62%");
  expect(asPercent(Number.NaN)).toBe("–");
});
