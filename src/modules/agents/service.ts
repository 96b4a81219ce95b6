// Mission Control's reads, the trend settings and the A/B ingest. The agents themselves run in
// the agent loop (src/modules/agents/loop), usually inside the agents worker.
import type { SqlDb } from "#server/db/sql";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "#server/http/errors";
import { nowIso } from "#server/lib/ids";
import type {
  AnalyticsDto,
  ComponentDto,
  ExperimentDto,
  IngestInput,
  MetricsDto,
  TrendDto,
  TrendSettings,
  Viewer,
  AgentDto,
} from "./model";
import { accuracyOf } from "./logic/oracle";
import { agentsRepository } from "./repository";
import { agentToDto, componentToDto, experimentToDto, trendToDto, type ExperimentRow } from "./rows";
import { readTrendSettings, TREND_SETTINGS_KEY } from "./settings";
import { minuteBucket, trafficRepository } from "./traffic-repository";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// The viewer's id is their current workspace: agent output built from a workspace's captures is
// that workspace's; rows without an owner are shared. Site admins see and manage every row.
const canSee = (viewer: Viewer, ownerId: string | null) => viewer.role === "admin" || ownerId === null || ownerId === viewer.id;
const canManage = (viewer: Viewer, ownerId: string | null) => viewer.role === "admin" || (ownerId !== null && ownerId === viewer.id);

export function agentsService(deps: { db: SqlDb; now?: () => number; onSettingsChanged?: () => void }) {
  const repo = agentsRepository(deps.db);
  const traffic = trafficRepository(deps.db);
  const now = deps.now ?? Date.now;
  const isAdmin = (v: Viewer) => v.role === "admin";

  async function experimentDto(row: ExperimentRow, viewer: Viewer | null): Promise<ExperimentDto> {
    return experimentToDto(row, await repo.variants(row.id), await repo.prediction(row.id), {
      withKey: viewer !== null && canManage(viewer, row.owner_id),
    });
  }

  return {
    agents: async (): Promise<AgentDto[]> => (await repo.agents()).map(agentToDto),

    async metrics(viewer: Viewer): Promise<MetricsDto> {
      const m = await repo.metrics(isAdmin(viewer), viewer.id);
      return {
        totalTrends: m.trends,
        totalComponents: m.components,
        activeTests: m.active,
        averageAccuracy: accuracyOf(m.correct, m.decided),
        decidedPredictions: m.decided,
        correctPredictions: m.correct,
        simulatedDecisions: m.simulated_decided,
      };
    },

    trends: async (viewer: Viewer, limit: number): Promise<TrendDto[]> => (await repo.trends(limit)).map((r) => trendToDto(r, viewer)),

    trendSettings: async (): Promise<TrendSettings> => readTrendSettings(await repo.setting(TREND_SETTINGS_KEY)),

    async saveTrendSettings(input: TrendSettings): Promise<TrendSettings> {
      const clean = { ...input, customKeywords: [...new Set(input.customKeywords.map((k) => k.trim()))] };
      await repo.saveSetting(TREND_SETTINGS_KEY, JSON.stringify(clean), nowIso(now()));
      deps.onSettingsChanged?.();
      return clean;
    },

    components: async (viewer: Viewer, limit: number): Promise<ComponentDto[]> =>
      (await repo.components(isAdmin(viewer), viewer.id, limit)).map(componentToDto),

    async component(viewer: Viewer, id: string): Promise<ComponentDto> {
      const row = await repo.component(isAdmin(viewer), viewer.id, id);
      if (!row) throw notFound("Component not found");
      return componentToDto(row);
    },

    async tests(viewer: Viewer, status: "active" | "completed" | undefined, limit: number): Promise<ExperimentDto[]> {
      const out: ExperimentDto[] = [];
      for (const r of await repo.experiments(isAdmin(viewer), viewer.id, status, limit)) out.push(await experimentDto(r, viewer));
      return out;
    },

    async test(viewer: Viewer, id: string): Promise<ExperimentDto> {
      const row = await repo.experiment(id);
      if (!row || !canSee(viewer, row.owner_id)) throw notFound("Test not found");
      return experimentDto(row, viewer);
    },

    /**
     * Real traffic for a running test, from an editor of its workspace or a site admin (bearer) or
     * from anything holding the test's ingest key (a site's backend). Tests already fed by the
     * simulator refuse it.
     */
    async ingest(
      id: string,
      who: { viewer: Viewer | null; editor?: boolean; ingestKey: string | null },
      input: IngestInput,
    ): Promise<ExperimentDto> {
      const found = await repo.experiment(id);
      const byKey = !!found && !!who.ingestKey && timingSafeEqual(who.ingestKey, found.ingest_key);
      if (!byKey) {
        if (!who.viewer) throw unauthorized("A valid ingest key or sign-in is required");
        if (!found || !canSee(who.viewer, found.owner_id)) throw notFound("Test not found");
        if (!canManage(who.viewer, found.owner_id) || (who.viewer.role !== "admin" && who.editor === false))
          throw forbidden("Only an editor of the test's workspace or an admin can send its events");
      }
      const row = found!;
      if (row.status !== "active") throw conflict("This test has already completed");
      await traffic.claim(row.id, "real");
      if ((await repo.experiment(id))?.traffic !== "real")
        throw conflict("This test runs on simulated traffic; real events can't be mixed in");
      const variant = (await repo.variants(id)).find((v) => v.label === input.variant);
      if (!variant) throw notFound("Variant not found");
      const ok = await traffic.add({
        experimentId: id,
        variantId: variant.id,
        bucket: minuteBucket(now()),
        source: "real",
        impressions: input.event === "impression" ? input.count : 0,
        conversions: input.event === "conversion" ? input.count : 0,
      });
      if (!ok) throw badRequest("Conversions cannot exceed impressions for a variant");
      return experimentDto((await repo.experiment(id))!, who.viewer);
    },

    async analytics(viewer: Viewer, range: "48h" | "30d"): Promise<AnalyticsDto> {
      const hourly = range === "48h";
      const span = hourly ? 48 : 30;
      const step = hourly ? HOUR : DAY;
      const prefix = hourly ? 13 : 10;
      const end = now();
      const startMs = Math.floor(end / step) * step - (span - 1) * step;
      const since = nowIso(startMs).slice(0, prefix);
      const admin = isAdmin(viewer);
      const traffic = new Map((await repo.trafficSeries(admin, viewer.id, prefix, since)).map((r) => [r.b, r]));
      const started = new Map((await repo.startedSeries(admin, viewer.id, prefix, since)).map((r) => [r.b, r.n]));
      const completed = new Map((await repo.completedSeries(admin, viewer.id, prefix, since)).map((r) => [r.b, r.n]));
      const series: AnalyticsDto["traffic"] = [];
      for (let i = 0; i < span; i++) {
        const b = nowIso(startMs + i * step).slice(0, prefix);
        const t = traffic.get(b);
        series.push({
          bucket: b,
          testsStarted: started.get(b) ?? 0,
          testsCompleted: completed.get(b) ?? 0,
          impressions: t?.impressions ?? 0,
          conversions: t?.conversions ?? 0,
          simulatedImpressions: t?.simulated ?? 0,
        });
      }
      let correct = 0;
      const accuracy = (await repo.decidedPredictions()).map((p, i) => {
        if (p.outcome === "correct") correct++;
        return { at: p.scored_at, accuracy: accuracyOf(correct, i + 1) ?? 0, decided: i + 1 };
      });
      const sims = (await repo.similarities(admin, viewer.id)).filter((s) => Number.isFinite(s));
      const buckets = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, to: (i + 1) / 10, count: 0 }));
      for (const s of sims) buckets[Math.min(9, Math.max(0, Math.floor(s * 10)))]!.count++;
      return {
        range,
        bucket: hourly ? "hour" : "day",
        traffic: series,
        accuracy,
        similarity: {
          scope: admin ? "all" : "yours",
          buckets,
          total: sims.length,
          mean: sims.length ? sims.reduce((a, b) => a + b, 0) / sims.length : null,
        },
      };
    },
  };
}
export type AgentsService = ReturnType<typeof agentsService>;

function timingSafeEqual(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  if (ea.length !== eb.length) return false;
  let diff = 0;
  for (let i = 0; i < ea.length; i++) diff |= ea[i]! ^ eb[i]!;
  return diff === 0;
}
