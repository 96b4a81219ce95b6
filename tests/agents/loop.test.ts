import { beforeEach, describe, expect, test } from "bun:test";
import { openDatabase, type Db } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { sqliteSql } from "#server/db/sql";
import type { Audience, LiveMessage } from "#server/live/hub";
import { AgentLoop } from "#server/modules/agents/loop/loop";
import { PLANNED_PER_VARIANT } from "#server/modules/agents/loop/test-commander";
import { agentsService } from "#server/modules/agents/service";
import { insertComparison, insertUser } from "./fixtures";

let db: Db;
let sent: { message: LiveMessage; audience: Audience }[];
let clock: number;
let loop: AgentLoop;

beforeEach(() => {
  db = openDatabase(":memory:");
  migrate(db);
  sent = [];
  clock = Date.parse("2025-06-01T12:00:00Z");
  loop = new AgentLoop({
    db: sqliteSql(db),
    emit: (message, audience) => sent.push({ message, audience }),
    now: () => clock,
    log: () => {},
  });
});

const of = (type: string) => sent.filter((s) => s.message.type === type);
const activity = () =>
  db
    .query<{ type: string; message: string; user_id: string | null; status: string }, []>(
      "SELECT type, message, user_id, status FROM activity_log ORDER BY id",
    )
    .all();

describe("agents loop", () => {
  test("with nothing captured, TrendHunter says so and invents nothing", async () => {
    await loop.trendHunter.run();
    expect(of("TREND_DISCOVERED")).toHaveLength(0);
    const hunter = await loop.ctx.agent("trend-hunter");
    expect(hunter.status).toBe("idle");
    expect(hunter.currentTask).toContain("No captured sites yet");
    expect(activity().map((a) => a.message)).toEqual(["No data yet: TrendHunter needs captured sites to mine"]);
    await loop.trendHunter.run();
    expect(activity()).toHaveLength(1); // said once, not every scan
  });

  test("TrendHunter reports a pattern shared by captured sites, with per-owner evidence", async () => {
    const alice = insertUser(db);
    const bob = insertUser(db);
    insertComparison(
      db,
      alice,
      Array.from({ length: 5 }, (_, i) => ({
        url: `https://a${i}.example/`,
        isDark: true,
        accent: ["#dc2626", "#16a34a", "#2563eb", "#7c3aed", "#db2777"][i],
      })),
    );
    insertComparison(
      db,
      bob,
      Array.from({ length: 5 }, (_, i) => ({
        url: `https://b${i}.example/`,
        isDark: i < 4,
        accent: ["#ea7a0c", "#0d9488", "#d4b106", "#dc2626", "#16a34a"][i],
      })),
    );
    await loop.trendHunter.run();
    const found = of("TREND_DISCOVERED").map((s) => s.message.payload as { key: string; support: number; evidence: unknown[] });
    const dark = found.find((t) => t.key === "theme:dark");
    expect(dark?.support).toBe(9);
    expect(dark?.evidence).toEqual([]); // the broadcast carries numbers, not sites
    expect(found.some((t) => t.key.startsWith("accent:"))).toBe(false);

    const svc = agentsService({ db: sqliteSql(db) });
    const forBob = (await svc.trends({ id: bob, role: "user" }, 20)).find((t) => t.key === "theme:dark")!;
    expect(forBob.evidence.map((e) => e.host).sort()).toEqual(["b0.example", "b1.example", "b2.example", "b3.example"]);
    const forAdmin = (await svc.trends({ id: "x", role: "admin" }, 20)).find((t) => t.key === "theme:dark")!;
    expect(forAdmin.evidence).toHaveLength(9);

    // A second scan over the same data discovers nothing new.
    await loop.trendHunter.run();
    expect(of("TREND_DISCOVERED").length).toBe(found.length);
    expect((await svc.metrics({ id: bob, role: "user" })).totalTrends).toBe(found.length);
  });

  test("trend settings are honoured: a stricter threshold reports less", async () => {
    const u = insertUser(db);
    insertComparison(
      db,
      u,
      Array.from({ length: 6 }, (_, i) => ({ url: `https://s${i}.example/`, isDark: i < 5 })),
    );
    const svc = agentsService({ db: sqliteSql(db) });
    await svc.saveTrendSettings({ ...(await svc.trendSettings()), confidenceThreshold: 99 });
    await loop.trendHunter.run();
    expect(of("TREND_DISCOVERED").some((s) => (s.message.payload as { key: string }).key === "theme:dark")).toBe(false);
    await svc.saveTrendSettings({ ...(await svc.trendSettings()), confidenceThreshold: 70 });
    await loop.trendHunter.run();
    expect(of("TREND_DISCOVERED").some((s) => (s.message.payload as { key: string }).key === "theme:dark")).toBe(true);
  });

  test("DesignNinja uses the product's tokens, labelled, when no site was captured", async () => {
    await loop.designNinja.run();
    const [c] = of("COMPONENT_GENERATED");
    const payload = c!.message.payload as { sourceLabel: string; sourceKind: string; compiled: boolean; code: string };
    expect(payload.sourceLabel).toBe("Design Intel default tokens");
    expect(payload.sourceKind).toBe("default");
    expect(payload.compiled).toBe(true);
    expect(payload.code).toContain("Tokens from Design Intel default tokens");
    expect(c!.audience).toEqual({ kind: "all" });
  });

  test("DesignNinja builds a captured site's kit for its owner only", async () => {
    const owner = insertUser(db);
    insertComparison(db, owner, [{ url: "https://acme.example/", accent: "#e11d48", font: "Poppins" }]);
    for (let i = 0; i < 9; i++) await loop.designNinja.run();
    const made = of("COMPONENT_GENERATED");
    expect(made).toHaveLength(8); // 4 kinds x 2 variants, then nothing left to do
    // To the members of the workspace whose captures it was built from (a personal one: its owner), and admins.
    expect(made.every((m) => m.audience.kind === "workspace" && m.audience.workspaceId === owner && m.audience.admins === true)).toBe(true);
    const first = made[0]!.message.payload as { tokens: { primary: string; fontFamily: string }; sourceLabel: string };
    expect(first.sourceLabel).toBe("acme.example");
    expect(first.tokens.primary).toBe("#e11d48");
    expect(first.tokens.fontFamily).toContain("Poppins");
    // The shared agent status never names a user's site.
    for (const s of of("AGENT_UPDATE")) expect(JSON.stringify(s.message.payload)).not.toContain("acme.example");
    expect((await loop.ctx.agent("design-ninja")).status).toBe("idle");
    const svc = agentsService({ db: sqliteSql(db) });
    expect(await svc.components({ id: "someone-else", role: "user" }, 10)).toHaveLength(0);
    expect(await svc.components({ id: owner, role: "user" }, 10)).toHaveLength(8);
  });

  test("a test with no real traffic runs on labelled simulated visitors until the stopping rule, then the oracle scores itself", async () => {
    await loop.designNinja.run();
    await loop.designNinja.run(); // the CTA pair: A and B
    await loop.testCommander.run();
    const svc = agentsService({ db: sqliteSql(db) });
    const [test] = await svc.tests({ id: "u", role: "user" }, "active", 10);
    expect(test?.traffic).toBe("pending");
    await loop.insightOracle.run();
    expect((await svc.test({ id: "u", role: "user" }, test!.id)).prediction?.outcome).toBeNull();

    clock += 10_000; // past the grace period: the simulator takes over
    let guard = 0;
    while ((await svc.tests({ id: "u", role: "user" }, "active", 10)).length && guard++ < 200) {
      await loop.testCommander.run();
      clock += 3000;
    }
    const done = await svc.test({ id: "u", role: "user" }, test!.id);
    expect(done.status).toBe("completed");
    expect(done.simulated).toBe(true);
    expect(done.variants.every((v) => v.impressions >= PLANNED_PER_VARIANT)).toBe(true);
    const completed = of("TEST_COMPLETED")[0]!.message.payload as {
      simulated: boolean;
      pValue: number;
      significant: boolean;
      winnerLabel: string | null;
    };
    expect(completed.simulated).toBe(true);
    expect(completed.significant).toBe(completed.pValue < 0.05);
    expect(completed.winnerLabel === null).toBe(!completed.significant);
    expect(activity().some((a) => a.message.includes("(simulated traffic)"))).toBe(true);

    await loop.insightOracle.run();
    const scored = (await svc.test({ id: "u", role: "user" }, test!.id)).prediction!;
    const m = await svc.metrics({ id: "u", role: "user" });
    if (completed.significant) {
      expect(scored.outcome === "correct" || scored.outcome === "wrong").toBe(true);
      expect(m.decidedPredictions).toBe(1);
      expect(m.averageAccuracy).toBe(scored.outcome === "correct" ? 100 : 0);
    } else {
      expect(scored.outcome).toBe("undecided");
      expect(m.averageAccuracy).toBeNull();
    }
  });

  test("the simulator is reproducible: the same experiment seed gives the same counts", async () => {
    const run = async () => {
      const d = openDatabase(":memory:");
      migrate(d);
      const e = new AgentLoop({ db: sqliteSql(d), emit: () => {}, now: () => clock, log: () => {} });
      await e.designNinja.run();
      await e.designNinja.run();
      await e.testCommander.run();
      d.query("UPDATE experiments SET sim_seed = 12345").run();
      clock += 10_000;
      for (let i = 0; i < 5; i++) await e.testCommander.run();
      return d
        .query<{ label: string; impressions: number; conversions: number }, []>(
          "SELECT label, impressions, conversions FROM experiment_variants ORDER BY label",
        )
        .all();
    };
    expect(await run()).toEqual(await run());
  });

  test("a failing agent shows error and the others carry on", async () => {
    db.exec("DROP TABLE components");
    await loop.start();
    await loop.tick();
    await loop.stop();
    expect((await loop.ctx.agent("design-ninja")).status).toBe("stopped");
    const errors = activity().filter((a) => a.status === "error");
    expect(errors.some((e) => e.message === "DesignNinja hit an error")).toBe(true);
    expect(sent.some((s) => s.message.type === "AGENT_UPDATE" && (s.message.payload as { status?: string }).status === "error")).toBe(true);
  });

  test("stop() marks every agent stopped and no work runs after it", async () => {
    await loop.start();
    await loop.tick();
    await loop.stop();
    const count = sent.length;
    await loop.tick();
    expect(sent.length).toBe(count);
    for (const id of ["trend-hunter", "design-ninja", "test-commander", "insight-oracle"] as const)
      expect((await loop.ctx.agent(id)).status).toBe("stopped");
  });
});
