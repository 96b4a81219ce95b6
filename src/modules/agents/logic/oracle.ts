// InsightOracle's model: a logistic regression on the difference between two variants' design
// features, P(B beats A) = sigmoid(w . (fB - fA) + b). It starts from a documented prior and
// learns online from every test that ends with a significant winner.
import type { DesignFeatures } from "./component-templates";

export type Weights = Record<keyof DesignFeatures | "bias", number>;

/**
 * The prior: readable, high-contrast, filled, roomier calls to action tend to win (the usual
 * accessibility and conversion guidance). Everything else starts neutral and is learned.
 */
export const PRIOR_WEIGHTS: Weights = {
  bias: 0,
  ctaContrast: 0.25,
  ctaSolid: 0.6,
  ctaPaddingPx: 0.03,
  radiusPx: 0,
  spaceUnitPx: 0,
  centered: 0,
  emphasis: 0.2,
};

export const LEARNING_RATE = 0.3;

const FEATURE_KEYS = ["ctaContrast", "ctaSolid", "ctaPaddingPx", "radiusPx", "spaceUnitPx", "centered", "emphasis"] as const;

export function featureDelta(a: DesignFeatures, b: DesignFeatures): Record<keyof DesignFeatures, number> {
  const out = {} as Record<keyof DesignFeatures, number>;
  for (const k of FEATURE_KEYS) out[k] = (Number(b[k]) || 0) - (Number(a[k]) || 0);
  return out;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Probability that variant B beats variant A. */
export function probabilityBWins(w: Weights, delta: Record<keyof DesignFeatures, number>): number {
  let s = w.bias;
  for (const k of FEATURE_KEYS) s += (w[k] ?? 0) * delta[k];
  return sigmoid(s);
}

export interface Prediction {
  label: "A" | "B";
  /** Probability of the predicted label, 0.5..1 */
  probability: number;
  pB: number;
}

export function predict(w: Weights, a: DesignFeatures, b: DesignFeatures): Prediction {
  const pB = probabilityBWins(w, featureDelta(a, b));
  return pB >= 0.5 ? { label: "B", probability: pB, pB } : { label: "A", probability: 1 - pB, pB };
}

/** One stochastic-gradient step of the log-loss on a decided outcome. */
export function learn(w: Weights, delta: Record<keyof DesignFeatures, number>, bWon: boolean, rate = LEARNING_RATE): Weights {
  const err = (bWon ? 1 : 0) - probabilityBWins(w, delta);
  const next = { ...w, bias: w.bias + rate * err };
  for (const k of FEATURE_KEYS) next[k] = (w[k] ?? 0) + rate * err * delta[k];
  return next;
}

export function parseWeights(raw: unknown): Weights {
  const out = { ...PRIOR_WEIGHTS };
  if (raw && typeof raw === "object") {
    for (const k of Object.keys(out) as (keyof Weights)[]) {
      const v = (raw as Record<string, unknown>)[k];
      if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
    }
  }
  return out;
}

/** correct / decided, as a percentage; null until one prediction is decided. */
export function accuracyOf(correct: number, decided: number): number | null {
  if (decided <= 0) return null;
  return Math.round((correct / decided) * 1000) / 10;
}
