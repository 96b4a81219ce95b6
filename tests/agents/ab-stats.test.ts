import { describe, expect, test } from "bun:test";
import { compareArms, normalCdf, normalQuantile } from "#server/modules/agents/logic/ab-stats";

// Reference values from scipy.stats (norm.sf, beta) computed independently.
describe("A/B statistics", () => {
  test("two-proportion z-test on fixed counts matches the textbook values", () => {
    const r = compareArms({ impressions: 1000, conversions: 200 }, { impressions: 1000, conversions: 250 });
    expect(r.rateA).toBe(0.2);
    expect(r.rateB).toBe(0.25);
    expect(r.z).toBeCloseTo(2.677397763, 6);
    expect(r.pValue).toBeCloseTo(0.0074196493, 6);
    expect(r.significant).toBe(true);
    expect(r.uplift).toBeCloseTo(0.25, 10);
    expect(r.differenceInterval[0]).toBeCloseTo(0.0134636217, 6);
    expect(r.differenceInterval[1]).toBeCloseTo(0.0865363783, 6);
    expect(r.upliftInterval![0]).toBeCloseTo(0.0134636217 / 0.2, 5);
    expect(r.chanceBBeatsA).toBeCloseTo(0.99628, 3);
  });

  test("a small difference is not significant", () => {
    const r = compareArms({ impressions: 1000, conversions: 48 }, { impressions: 1000, conversions: 61 });
    expect(r.z).toBeCloseTo(1.280558245, 6);
    expect(r.pValue).toBeCloseTo(0.2003488741, 5);
    expect(r.significant).toBe(false);
  });

  test("direction: B worse than A gives a negative z and uplift", () => {
    const r = compareArms({ impressions: 1000, conversions: 250 }, { impressions: 1000, conversions: 200 });
    expect(r.z).toBeCloseTo(-2.677397763, 6);
    expect(r.uplift).toBeCloseTo(-0.2, 10);
    expect(r.chanceBBeatsA).toBeLessThan(0.01);
  });

  test("degenerate inputs don't produce NaN", () => {
    const none = compareArms({ impressions: 0, conversions: 0 }, { impressions: 0, conversions: 0 });
    expect(none.pValue).toBe(1);
    expect(none.uplift).toBeNull();
    const zero = compareArms({ impressions: 100, conversions: 0 }, { impressions: 100, conversions: 0 });
    expect(zero.pValue).toBe(1);
    expect(Number.isNaN(zero.chanceBBeatsA)).toBe(false);
    expect(() => compareArms({ impressions: 10, conversions: 11 }, { impressions: 10, conversions: 1 })).toThrow();
  });

  test("normal CDF and quantile agree with known points", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963985)).toBeCloseTo(0.975, 6);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 6);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.575829304, 6);
  });
});
