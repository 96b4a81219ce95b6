// A/B statistics for TestCommander. Frequentist: two-sided pooled two-proportion z-test, Wald
// interval for the difference. Bayesian companion: chance that B beats A under Beta(1,1) priors.

export interface Arm {
  impressions: number;
  conversions: number;
}

import type { AbResult } from "../model";
export type { AbResult };

/** Complementary error function, Numerical Recipes' Chebyshev fit (fractional error < 1.2e-7). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** Inverse normal CDF (Acklam), for interval widths at any alpha. */
export function normalQuantile(p: number): number {
  if (p <= 0 || p >= 1) throw new RangeError("p must be in (0, 1)");
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  const poly = (k: number[], x: number) => k.reduce((acc, v) => acc * x + v, 0);
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - lo) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -poly(c, q) / (poly(d, q) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

/** P(B > A) with Beta(1 + conversions, 1 + misses) posteriors, normal approximation (fine from a few dozen visitors up). */
export function chanceToBeat(a: Arm, b: Arm): number {
  const post = (x: Arm) => {
    const alpha = x.conversions + 1;
    const beta = x.impressions - x.conversions + 1;
    const mean = alpha / (alpha + beta);
    const variance = (alpha * beta) / ((alpha + beta) ** 2 * (alpha + beta + 1));
    return { mean, variance };
  };
  const pa = post(a);
  const pb = post(b);
  return normalCdf((pb.mean - pa.mean) / Math.sqrt(pa.variance + pb.variance));
}

export function compareArms(a: Arm, b: Arm, alpha = 0.05): AbResult {
  for (const arm of [a, b]) {
    if (
      !Number.isInteger(arm.impressions) ||
      !Number.isInteger(arm.conversions) ||
      arm.conversions < 0 ||
      arm.conversions > arm.impressions
    )
      throw new RangeError("conversions must be whole numbers between 0 and impressions");
  }
  const rateA = a.impressions ? a.conversions / a.impressions : 0;
  const rateB = b.impressions ? b.conversions / b.impressions : 0;
  const difference = rateB - rateA;
  const crit = normalQuantile(1 - alpha / 2);

  let z = 0;
  let pValue = 1;
  if (a.impressions > 0 && b.impressions > 0) {
    const pooled = (a.conversions + b.conversions) / (a.impressions + b.impressions);
    const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.impressions + 1 / b.impressions));
    if (se > 0) {
      z = difference / se;
      pValue = Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
    }
  }
  const seDiff =
    a.impressions > 0 && b.impressions > 0 ? Math.sqrt((rateA * (1 - rateA)) / a.impressions + (rateB * (1 - rateB)) / b.impressions) : 0;
  const differenceInterval: [number, number] = [difference - crit * seDiff, difference + crit * seDiff];
  const uplift = rateA > 0 ? difference / rateA : null;
  const upliftInterval: [number, number] | null = rateA > 0 ? [differenceInterval[0] / rateA, differenceInterval[1] / rateA] : null;
  return {
    rateA,
    rateB,
    difference,
    differenceInterval,
    uplift,
    upliftInterval,
    z,
    pValue,
    alpha,
    significant: pValue < alpha,
    chanceBBeatsA: a.impressions + b.impressions > 0 ? chanceToBeat(a, b) : 0.5,
  };
}
