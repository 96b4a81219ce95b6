import { describe, expect, test } from "bun:test";
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

describe("results view additions", () => {
  const { filterFindings, filmstripColumns, heatColor, similarityMatrix } = require("./results-data") as typeof import("./results-data");
  const f = (id: string, targetId: string, viewport: "desktop" | "mobile", severity: "high" | "low") =>
    ({ id, targetId, viewport, severity, group: "design", title: id, evidence: {}, fix: "", source: "rules" }) as const;
  const label = (id: string) => ({ t1: "Alpha", t2: "Beta", t3: "Gamma" })[id] ?? id;

  test("findings filters say how many are hidden and by what", () => {
    const all = [
      f("a", "t1", "desktop", "low"),
      f("b", "t2", "desktop", "high"),
      f("c", "t3", "desktop", "high"),
      f("d", "t1", "mobile", "high"),
    ];
    const r = filterFindings(all, { viewport: "desktop", sites: "pair", severity: "all" }, ["t1", "t2"], label);
    expect(r.shown.map((x) => x.id)).toEqual(["b", "a"]);
    expect(r.summary).toBe("2 of 4 — desktop · Alpha vs Beta");
    expect(filterFindings(all, { viewport: "all", sites: "all", severity: "all" }, ["t1", "t2"], label).summary).toBe("4 of 4");
    expect(filterFindings(all, { viewport: "all", sites: "all", severity: "high" }, ["t1", "t2"], label).summary).toBe(
      "3 of 4 — high severity",
    );
  });

  test("the matrix holds every ordered pair with its scores, the diagonal empty", () => {
    const targets = [{ id: "t1" }, { id: "t2" }, { id: "t3" }] as never[];
    const d = {
      id: "d",
      viewport: "desktop",
      targetAId: "t2",
      targetBId: "t1",
      createdAt: "2025-01-01T00:00:00Z",
      overallSimilarity: 0.5,
    } as never;
    const m = similarityMatrix(targets, [d], "desktop");
    expect(m.map((r) => r.map((c) => (c ? `${c.pair.join("-")}:${c.diff ? "s" : "-"}` : null)))).toEqual([
      [null, "t1-t2:s", "t1-t3:-"],
      ["t2-t1:s", null, "t2-t3:-"],
      ["t3-t1:-", "t3-t2:-", null],
    ]);
    expect(heatColor(0)).not.toBe(heatColor(1));
  });

  test("filmstrip columns: one time axis, each site's latest frame at each moment", () => {
    const tracks = [
      {
        targetId: "t1",
        frames: [
          { ms: 120, url: "a0" },
          { ms: 350, url: "a1" },
        ],
      },
      { targetId: "t2", frames: [{ ms: 240, url: "b0" }] },
    ];
    const cols = filmstripColumns(tracks);
    // Before anyone paints, one blank column stands for the wait.
    expect(cols.map((c) => c.ms)).toEqual([0, 200, 300, 400]);
    expect(cols.map((c) => c.frames.map((x) => x?.url ?? null))).toEqual([
      [null, null],
      ["a0", null],
      ["a0", "b0"],
      ["a1", "b0"],
    ]);
    // A long load keeps only the moments something changed.
    const long = filmstripColumns([
      {
        targetId: "t1",
        frames: [
          { ms: 100, url: "x" },
          { ms: 9000, url: "y" },
        ],
      },
    ]);
    expect(long.map((c) => c.ms)).toEqual([0, 100, 9000]);
  });
});
