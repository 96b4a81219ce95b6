// The seeded visitor simulator that feeds A/B tests nobody sends real traffic to. Its true
// conversion rates are drawn from the experiment's seed and have NOTHING to do with the
// variants' design: simulated tests are labelled as such, and the oracle cannot learn a rule
// the simulator made up.
import { hashSeed, normalDraw, seededRandom } from "./rng";

export const VISITORS_PER_BATCH = 80;

/** Base rate uniform in 4–12 %, B's relative lift ~ Normal(0, 25 %) clipped to [-50 %, +80 %]. */
export function simulatedRates(seed: number): { A: number; B: number } {
  const rand = seededRandom(seed);
  const base = 0.04 + rand() * 0.08;
  const lift = Math.max(-0.5, Math.min(0.8, normalDraw(rand) * 0.25));
  return { A: base, B: Math.min(0.95, base * (1 + lift)) };
}

export interface Batch {
  A: { impressions: number; conversions: number };
  B: { impressions: number; conversions: number };
}

/** Batch number n of an experiment: the same (seed, n) always gives the same visitors. */
export function simulateBatch(seed: number, batch: number, rates: { A: number; B: number }, visitors = VISITORS_PER_BATCH): Batch {
  const rand = seededRandom(hashSeed(`${seed}:${batch}`));
  const out: Batch = { A: { impressions: 0, conversions: 0 }, B: { impressions: 0, conversions: 0 } };
  for (let i = 0; i < visitors; i++) {
    const arm = rand() < 0.5 ? "A" : "B";
    out[arm].impressions++;
    if (rand() < rates[arm]) out[arm].conversions++;
  }
  return out;
}
