// The console's repositories (agents, the system switch, admin, readiness) run the same statements
// on SQLite and PostgreSQL and read back the same values (docs/decisions/0020-postgres-dialect.md).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { type SqlDb, sqliteSql } from "#server/db/sql";
import { adminRepository } from "#server/modules/admin/repository";
import { loopRepository } from "#server/modules/agents/loop/repository";
import { agentsRepository } from "#server/modules/agents/repository";
import type { ComponentRow } from "#server/modules/agents/rows";
import { trafficRepository } from "#server/modules/agents/traffic-repository";
import { healthRepository } from "#server/modules/health/repository";
import { systemRepository } from "#server/modules/system/repository";
import { migratedPg, PG_START_TIMEOUT, pgMissing, stopPostgres } from "#tests/support/postgres";

const AT = "2026-01-01T00:00:00.000Z";

const component = (id: string, variant: "A" | "B", compiled: number): ComponentRow => ({
  id,
  kind: "hero",
  variant,
  style: "bold",
  name: `Hero${variant}`,
  file_name: `Hero${variant}.tsx`,
  source_label: "default",
  source_key: "default",
  snapshot_id: null,
  owner_id: null,
  tokens: "{}",
  features: "{}",
  code: "export {}",
  preview_html: "<p></p>",
  compiled,
  created_at: AT,
});

const trend = {
  key: "theme:dark",
  title: "Dark themes",
  description: "Most sites are dark",
  support: 3,
  sampleSize: 4,
  share: 0.75,
  direction: null,
  directionBasis: "{}",
  confidence: 80,
  strong: true,
  evidence: "[]",
  at: AT,
};

/** Every statement of the five repositories once, with what it answered. */
async function scenario(db: SqlDb) {
  const loop = loopRepository(db);
  const repo = agentsRepository(db);
  const traffic = trafficRepository(db);
  const system = systemRepository(db);
  const admin = adminRepository(db);
  const health = healthRepository(db);
  const out: Record<string, unknown> = {};

  await loop.insertTrend({ id: "t1", category: "theme", ...trend });
  await loop.updateTrend({ ...trend, strong: false, rediscoveredAt: null });
  out.trendByKey = (await loop.trendByKey("theme:dark"))?.strong;
  out.activeTrends = (await loop.activeTrends()).map((t) => t.id);
  out.trends = (await repo.trends(10)).map((t) => [t.id, t.strong, t.active]);
  await loop.deactivateTrend("theme:dark", AT);
  out.afterFade = (await repo.trends(10)).length;

  await loop.insertComponent(component("c1", "A", 1));
  await loop.insertComponent(component("c2", "B", 0));
  out.compileStats = await loop.compileStats();
  out.componentKeys = [...(await loop.componentKeys())].sort();
  out.untested = await loop.untestedPairs();
  out.pair = (await loop.pair("default", "hero")).map((c) => [c.id, c.compiled]);
  out.component = (await repo.component(false, "someone", "c1"))?.compiled;
  out.components = (await repo.components(false, "someone", 10)).map((c) => c.id);

  await loop.insertExperiment({
    id: "e1",
    name: "Hero",
    kind: "hero",
    sourceKey: "default",
    sourceLabel: "default",
    ownerId: null,
    ingestKey: "key",
    planned: 10,
    alpha: 0.05,
    seed: 7,
    at: AT,
  });
  await loop.insertVariant({ id: "v1", experimentId: "e1", label: "A", componentId: "c1", name: "HeroA" });
  await loop.insertVariant({ id: "v2", experimentId: "e1", label: "B", componentId: "c2", name: "HeroB" });
  out.claim = [await traffic.claim("e1", "real"), await traffic.claim("e1", "simulated")];
  const write = { experimentId: "e1", bucket: "2026-01-01T00:00", source: "real" as const };
  out.added = [
    await traffic.add({ ...write, variantId: "v1", impressions: 10, conversions: 3 }),
    await traffic.add({ ...write, variantId: "v1", impressions: 5, conversions: 1 }),
    await traffic.add({ ...write, variantId: "v2", impressions: 0, conversions: 1 }),
  ];
  await loop.setSimRate("v2", 0.25);
  await loop.bumpBatches("e1");
  out.variants = (await repo.variants("e1")).map((v) => [v.label, v.impressions, v.conversions, v.sim_rate]);
  out.experiments = (await repo.experiments(false, "someone", "active", 10)).map((e) => [e.id, e.traffic, e.sim_batches]);
  out.allExperiments = (await repo.experiments(true, "someone", undefined, 10)).length;
  out.activeExperiments = (await loop.activeExperiments()).map((e) => e.id);
  out.trafficSeries = await repo.trafficSeries(false, "someone", 13, "2026-01-01T00");
  out.startedSeries = await repo.startedSeries(true, "someone", 10, "2026-01-01");

  await loop.insertPrediction({ id: "p1", experimentId: "e1", variantId: "v1", label: "A", probability: 0.6, features: "{}", at: AT });
  out.openPredictions = await loop.openPredictions();
  out.complete = [await loop.complete("e1", "v1", "{}", AT), await loop.complete("e1", "v1", "{}", AT)];
  out.completedSeries = await repo.completedSeries(false, "someone", 10, "2026-01-01");
  out.unscored = (await loop.unscoredPredictions()).map((p) => [p.id, p.winner_variant_id, p.experiment_name, p.owner_id]);
  await loop.score("p1", "correct", AT);
  out.accuracy = await loop.accuracy();
  out.decided = await repo.decidedPredictions();
  out.prediction = (await repo.prediction("e1"))?.outcome;
  out.metrics = await repo.metrics(false, "someone");
  out.similarities = await repo.similarities(true, "someone");

  out.dataVersion = await loop.dataVersion();
  out.findings = await loop.findings();
  out.analysed = [...(await loop.analysedComparisons())];
  out.snapshots = await loop.desktopSnapshots();
  out.extraction = await loop.extraction("none");

  await repo.saveSetting("trends.settings", '{"a":1}', AT);
  await repo.saveSetting("trends.settings", '{"a":2}', AT);
  out.setting = [await repo.setting("trends.settings"), await loop.setting("trends.settings"), await repo.setting("none")];
  const agent = (await loop.agent("design-ninja"))!;
  await loop.saveAgent({ ...agent, status: "active", tasks_completed: 3, accuracy: 50, last_activity: AT });
  out.agents = (await repo.agents()).map((a) => [a.id, a.status, a.tasks_completed]);

  out.systemBefore = await system.active();
  await system.setActive(true, AT);
  out.systemAfter = await system.active();
  out.stopped = (await system.markAgentsStopped(AT)).map((r) => r.id);

  await admin.putSetting("alerts", { cpu: 1 }, AT);
  await admin.putSetting("alerts", { cpu: 2 }, AT);
  out.adminSetting = await admin.getSetting("alerts");
  const tables = await admin.tables();
  out.tables = ["agents", "settings", "experiments"].every((t) => tables.includes(t));
  out.countAgents = await admin.countRows("agents");
  out.pageBytes = (await admin.pageBytes()) > 0;

  await health.writeProbe(AT);
  await health.writeProbe(AT);
  out.migrations = (await health.appliedMigrations()).length;
  return out;
}

let sqliteAnswers: Record<string, unknown>;

describe("SQLite", () => {
  test("every statement answers", async () => {
    const conn = openDatabase(":memory:");
    migrate(conn);
    sqliteAnswers = await scenario(sqliteSql(conn));
    expect(sqliteAnswers).toMatchObject({
      compileStats: { total: 2, ok: 1 },
      claim: [true, false],
      added: [true, true, false],
      complete: [true, false],
      accuracy: { correct: 1, decided: 1 },
      systemAfter: { active: true, since: AT },
      adminSetting: { cpu: 2 },
      tables: true,
      pageBytes: true,
    });
    conn.close();
  });
});

afterAll(stopPostgres);

describe.skipIf(pgMissing !== null)("PostgreSQL", () => {
  let db: SqlDb;
  beforeAll(async () => {
    db = await migratedPg();
  }, PG_START_TIMEOUT);
  afterAll(() => db?.close());

  test("every statement answers as SQLite does", async () => {
    expect(await scenario(db)).toEqual(sqliteAnswers);
  });

  test("a copy by VACUUM INTO is refused, saying why", async () => {
    await expect(adminRepository(db).vacuumInto("/tmp/x.db")).rejects.toThrow("pg_dump");
  });
});
