import { describe, expect, test } from "bun:test";
import { buildComponent } from "#server/modules/agents/logic/component-templates";
import { DEFAULT_SOURCE_LABEL, DEFAULT_TOKENS } from "#server/modules/agents/logic/design-tokens";
import { PRIOR_WEIGHTS, accuracyOf, featureDelta, learn, predict, probabilityBWins } from "#server/modules/agents/logic/oracle";

const features = (variant: "A" | "B") =>
  buildComponent({
    kind: "cta_button",
    variant,
    tokens: DEFAULT_TOKENS,
    sourceHost: null,
    sourceLabel: DEFAULT_SOURCE_LABEL,
    capturedAt: null,
  }).features;

describe("InsightOracle", () => {
  test("accuracy is correct / decided, one decimal, and unknown until something is decided", () => {
    expect(accuracyOf(0, 0)).toBeNull();
    expect(accuracyOf(2, 3)).toBe(66.7);
    expect(accuracyOf(5, 8)).toBe(62.5);
    expect(accuracyOf(7, 7)).toBe(100);
  });

  test("prediction is symmetric: swapping the variants flips the call", () => {
    const a = features("A");
    const b = features("B");
    const p = predict(PRIOR_WEIGHTS, a, b);
    const q = predict(PRIOR_WEIGHTS, b, a);
    expect(p.label).not.toBe(q.label);
    expect(p.probability).toBeCloseTo(q.probability, 12);
    // The prior prefers the solid, higher-contrast button (variant A).
    expect(p.label).toBe("A");
    expect(p.probability).toBeGreaterThan(0.5);
  });

  test("learning from outcomes moves the model toward them", () => {
    const delta = featureDelta(features("A"), features("B"));
    let w = { ...PRIOR_WEIGHTS };
    const before = probabilityBWins(w, delta);
    for (let i = 0; i < 20; i++) w = learn(w, delta, true);
    expect(probabilityBWins(w, delta)).toBeGreaterThan(before);
    expect(probabilityBWins(w, delta)).toBeGreaterThan(0.5);
  });
});
