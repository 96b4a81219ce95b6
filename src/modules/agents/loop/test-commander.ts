// TestCommander: pits the A and B variants of each generated kit against each other. Traffic is
// real (POST /api/tests/{id}/events) or, when none has arrived within the grace period, comes
// from the seeded visitor simulator; the test says which. Stopping rule: fixed horizon (see rows.ts).
import { newId, nowIso, randomToken } from "#server/lib/ids";
import { AGENT_IDS } from "../model";
import { compareArms } from "../logic/ab-stats";
import { KIND_LABELS, type ComponentKind } from "../logic/component-templates";
import { hashSeed } from "../logic/rng";
import { simulateBatch, simulatedRates } from "../logic/simulator";
import { experimentToDto, type ExperimentRow } from "../rows";
import { minuteBucket, trafficRepository, type TrafficRepository } from "../traffic-repository";
import { audienceFor, type AgentContext } from "./context";
import type { SqlDb } from "#server/db/sql";

const ID = AGENT_IDS.testCommander;
const NAME = "TestCommander";
export const PLANNED_PER_VARIANT = 1000;
export const ALPHA = 0.05;
export const MAX_ACTIVE_TESTS = 3;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export class TestCommander {
  private readonly traffic: TrafficRepository;

  constructor(
    private readonly ctx: AgentContext,
    private readonly db: SqlDb,
    private readonly pendingGraceMs: number,
  ) {
    this.traffic = trafficRepository(db);
  }

  private async startNew(activeCount: number): Promise<number> {
    const { ctx } = this;
    let started = 0;
    for (const pair of await ctx.repo.untestedPairs()) {
      if (activeCount + started >= MAX_ACTIVE_TESTS) break;
      const comps = await ctx.repo.pair(pair.source_key, pair.kind);
      const a = comps.find((c) => c.variant === "A");
      const b = comps.find((c) => c.variant === "B");
      if (!a || !b) continue;
      const id = newId();
      const name = `${KIND_LABELS[a.kind as ComponentKind]}: ${a.style} vs ${b.style} (${a.source_label})`;
      await this.db.tx(async () => {
        await ctx.repo.insertExperiment({
          id,
          name,
          kind: a.kind,
          sourceKey: a.source_key,
          sourceLabel: a.source_label,
          ownerId: a.owner_id,
          ingestKey: randomToken(24),
          planned: PLANNED_PER_VARIANT,
          alpha: ALPHA,
          seed: hashSeed(id),
          at: nowIso(ctx.now()),
        });
        await ctx.repo.insertVariant({ id: newId(), experimentId: id, label: "A", componentId: a.id, name: a.name });
        await ctx.repo.insertVariant({ id: newId(), experimentId: id, label: "B", componentId: b.id, name: b.name });
      });
      await ctx.activity.record({
        type: "test",
        status: "info",
        agentName: NAME,
        message: `A/B test started: ${name}`,
        details: `${a.name} (A) vs ${b.name} (B). ${PLANNED_PER_VARIANT} visitors per variant, then one z-test at α = ${ALPHA}.`,
        metadata: { testId: id },
        userId: a.owner_id,
      });
      started++;
    }
    return started;
  }

  private async feed(e: ExperimentRow): Promise<ExperimentRow> {
    const { ctx } = this;
    if (e.traffic === "pending" && ctx.now() - Date.parse(e.started_at) >= this.pendingGraceMs) {
      if (await this.traffic.claim(e.id, "simulated")) {
        const rates = simulatedRates(e.sim_seed);
        for (const v of await ctx.repo.variants(e.id)) await ctx.repo.setSimRate(v.id, rates[v.label]);
        await ctx.activity.record({
          type: "test",
          status: "warning",
          agentName: NAME,
          message: `No real traffic for "${e.name}": using simulated visitors`,
          details: "Send events to POST /api/tests/{id}/events to run a test on real visitors. Simulated results are labelled everywhere.",
          metadata: { testId: e.id, simulated: true },
          userId: e.owner_id,
        });
      }
      e = (await ctx.repo.experiment(e.id))!;
    }
    if (e.traffic !== "simulated") return e;
    const variants = await ctx.repo.variants(e.id);
    const rates = { A: variants.find((v) => v.label === "A")?.sim_rate ?? 0, B: variants.find((v) => v.label === "B")?.sim_rate ?? 0 };
    const batch = simulateBatch(e.sim_seed, e.sim_batches, rates);
    const bucket = minuteBucket(ctx.now());
    await this.db.tx(async () => {
      for (const v of variants)
        await this.traffic.add({
          experimentId: e.id,
          variantId: v.id,
          bucket,
          source: "simulated",
          impressions: batch[v.label].impressions,
          conversions: batch[v.label].conversions,
        });
      await ctx.repo.bumpBatches(e.id);
    });
    return (await ctx.repo.experiment(e.id))!;
  }

  private async maybeComplete(e: ExperimentRow): Promise<boolean> {
    const { ctx } = this;
    const variants = await ctx.repo.variants(e.id);
    const a = variants.find((v) => v.label === "A");
    const b = variants.find((v) => v.label === "B");
    if (!a || !b || a.impressions < e.planned_per_variant || b.impressions < e.planned_per_variant) return false;
    const stats = compareArms(a, b, e.alpha);
    const winner = stats.significant ? (stats.difference > 0 ? b : a) : null;
    if (!(await ctx.repo.complete(e.id, winner?.id ?? null, JSON.stringify(stats), nowIso(ctx.now())))) return false;
    const done = (await ctx.repo.experiment(e.id))!;
    const dto = experimentToDto(done, await ctx.repo.variants(e.id), await ctx.repo.prediction(e.id), { withKey: false });
    ctx.emit(
      {
        type: "TEST_COMPLETED",
        payload: { ...dto, winnerLabel: winner?.label ?? null, uplift: stats.uplift, pValue: stats.pValue, significant: stats.significant },
        agentId: ID,
      },
      audienceFor(e.owner_id),
    );
    const label = e.traffic === "simulated" ? " (simulated traffic)" : "";
    await ctx.activity.record({
      type: "test",
      status: winner ? "success" : "info",
      agentName: NAME,
      message: winner
        ? `Test completed: variant ${winner.label} wins "${e.name}"${label}`
        : `Test completed: no significant difference in "${e.name}"${label}`,
      details: `A ${pct(stats.rateA)} vs B ${pct(stats.rateB)}; uplift ${stats.uplift === null ? "n/a" : pct(stats.uplift)}, p = ${stats.pValue.toFixed(4)}, chance B beats A ${pct(stats.chanceBBeatsA)}.`,
      metadata: { testId: e.id, simulated: e.traffic === "simulated", pValue: stats.pValue },
      userId: e.owner_id,
    });
    return true;
  }

  async run(): Promise<void> {
    const { ctx } = this;
    let active = await ctx.repo.activeExperiments();
    const started = await this.startNew(active.length);
    if (started) active = await ctx.repo.activeExperiments();
    let completed = 0;
    let visitors = 0;
    let simulated = 0;
    for (const e of active) {
      const fed = await this.feed(e);
      if (await this.maybeComplete(fed)) {
        completed++;
        continue;
      }
      const vs = await ctx.repo.variants(fed.id);
      visitors += vs.reduce((n, v) => n + v.impressions, 0);
      if (fed.traffic === "simulated") simulated++;
    }
    const running = active.length - completed;
    if (!running && !completed && !started) {
      await ctx.update(ID, { status: "idle", currentTask: "Waiting for DesignNinja's A/B variant pairs", confidence: (1 - ALPHA) * 100 });
      return;
    }
    await ctx.update(ID, {
      status: "active",
      currentTask: running
        ? `Running ${running} test${running === 1 ? "" : "s"}: ${visitors.toLocaleString("en-US")} visitors so far${simulated ? ` (${simulated} on simulated traffic)` : ""}`
        : `Completed ${completed} test${completed === 1 ? "" : "s"}`,
      completed,
      confidence: (1 - ALPHA) * 100,
      metadata: { confidenceMeans: "Confidence level of every test (1 − α)", plannedPerVariant: PLANNED_PER_VARIANT },
    });
  }
}
