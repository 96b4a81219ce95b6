// InsightOracle: predicts each running test's winner from the variants' design features before
// any result is in, then scores itself when the test completes. Accuracy = correct / decided;
// tests that end without a significant winner don't count either way.
import { newId, nowIso } from "#server/lib/ids";
import { AGENT_IDS } from "../model";
import type { DesignFeatures } from "../logic/component-templates";
import { accuracyOf, featureDelta, learn, parseWeights, predict } from "../logic/oracle";
import { parseJson } from "../rows";
import type { AgentContext } from "./context";

const ID = AGENT_IDS.insightOracle;
const NAME = "InsightOracle";

export class InsightOracle {
  constructor(private readonly ctx: AgentContext) {}

  private async features(componentId: string | null): Promise<DesignFeatures | null> {
    if (!componentId) return null;
    const c = await this.ctx.repo.component(componentId);
    return c ? parseJson<DesignFeatures | null>(c.features, null) : null;
  }

  async run(): Promise<void> {
    const { ctx } = this;
    let weights = parseWeights((await ctx.agent(ID)).metadata.weights);
    let predicted = 0;
    let scored = 0;

    for (const e of await ctx.repo.activeExperiments()) {
      if (await ctx.repo.prediction(e.id)) continue;
      const variants = await ctx.repo.variants(e.id);
      const a = variants.find((v) => v.label === "A");
      const b = variants.find((v) => v.label === "B");
      const fa = await this.features(a?.component_id ?? null);
      const fb = await this.features(b?.component_id ?? null);
      if (!a || !b || !fa || !fb) continue;
      const p = predict(weights, fa, fb);
      const chosen = p.label === "A" ? a : b;
      await ctx.repo.insertPrediction({
        id: newId(),
        experimentId: e.id,
        variantId: chosen.id,
        label: p.label,
        probability: Math.round(p.probability * 1000) / 1000,
        features: JSON.stringify({ A: fa, B: fb, delta: featureDelta(fa, fb), weights }),
        at: nowIso(ctx.now()),
      });
      await ctx.activity.record({
        type: "test",
        status: "info",
        agentName: NAME,
        message: `Prediction: variant ${p.label} (${chosen.name}) will win "${e.name}"`,
        details: `${Math.round(p.probability * 100)}% sure, from the variants' design features, before any result is in.`,
        metadata: { testId: e.id, label: p.label, probability: p.probability },
        userId: e.owner_id,
      });
      predicted++;
    }

    for (const p of await ctx.repo.unscoredPredictions()) {
      const at = nowIso(ctx.now());
      if (!p.winner_variant_id) {
        await ctx.repo.score(p.id, "undecided", at);
        scored++;
        continue;
      }
      const correct = p.winner_variant_id === p.predicted_variant_id;
      await ctx.repo.score(p.id, correct ? "correct" : "wrong", at);
      scored++;
      const stored = parseJson<{ delta?: Record<keyof DesignFeatures, number> }>(p.features, {});
      if (stored.delta) {
        const bWon = correct ? p.predicted_label === "B" : p.predicted_label === "A";
        weights = learn(weights, stored.delta, bWon);
      }
      await ctx.activity.record({
        type: "test",
        status: correct ? "success" : "warning",
        agentName: NAME,
        message: correct
          ? `Called it: variant ${p.predicted_label} won "${p.experiment_name}"`
          : `Missed: predicted variant ${p.predicted_label} for "${p.experiment_name}"`,
        details: `Prediction was ${Math.round(p.probability * 100)}% sure. The model has updated its weights.`,
        metadata: { testId: p.experiment_id, correct },
        userId: p.owner_id,
      });
    }

    const { correct, decided } = await ctx.repo.accuracy();
    const open = await ctx.repo.openPredictions();
    const accuracy = accuracyOf(correct, decided);
    if (!predicted && !scored && !open.n) {
      await ctx.update(ID, { status: "idle", currentTask: "Waiting for A/B tests to predict", accuracy });
      return;
    }
    await ctx.update(ID, {
      status: "active",
      currentTask: `${open.n} open prediction${open.n === 1 ? "" : "s"}; ${decided ? `${correct} of ${decided} decided calls right` : "none decided yet"}`,
      completed: predicted + scored,
      accuracy,
      // Its score is measured accuracy only; how sure the open calls are stays in the metadata,
      // so the card never shows a self-assessment where a track record belongs.
      metadata: {
        weights,
        decided,
        correct,
        meanOpenProbability: open.avg === null ? null : Math.round(open.avg * 1000) / 1000,
        accuracyMeans: "correct / decided predictions",
      },
    });
  }
}
