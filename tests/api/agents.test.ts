import { afterEach, describe, expect, test } from "bun:test";
import { sqliteSql } from "#server/db/sql";
import { makeTestApp } from "#tests/support/app";
import { insertComparison } from "#tests/agents/fixtures";

type T = ReturnType<typeof makeTestApp>;
const apps: T[] = [];
function app(): T {
  const t = makeTestApp();
  apps.push(t);
  return t;
}
afterEach(async () => {
  for (const t of apps.splice(0)) await t.services.system.shutdown();
});

/** The first account is the admin; the second an ordinary user. */
async function people(t: T) {
  const admin = await t.signup();
  const user = await t.signup();
  return { admin: { ...admin, h: t.auth(admin.token) }, user: { ...user, h: t.auth(user.token) } };
}

describe("Mission Control API", () => {
  test("every read needs a signed-in user", async () => {
    const t = app();
    for (const p of [
      "/api/agents",
      "/api/metrics",
      "/api/trends?limit=20",
      "/api/components?limit=10",
      "/api/tests?status=active",
      "/api/activity?limit=50",
      "/api/analytics",
      "/api/system/status",
      "/api/trends/settings",
    ]) {
      const r = await t.call("GET", p);
      expect(r.status).toBe(401);
      expect(typeof r.json.error).toBe("string");
    }
  });

  test("agents carry every spec field; metrics start from real zeros and an unknown accuracy", async () => {
    const t = app();
    const { user } = await people(t);
    const agents = (await t.call("GET", "/api/agents", { headers: user.h })).json;
    expect(agents.map((a: { name: string }) => a.name)).toEqual(["TrendHunter", "DesignNinja", "TestCommander", "InsightOracle"]);
    expect(agents.map((a: { type: string }) => a.type)).toEqual(["trend_detection", "component_generation", "testing", "analytics"]);
    for (const a of agents) {
      for (const k of [
        "id",
        "name",
        "type",
        "status",
        "lastActivity",
        "tasksCompleted",
        "accuracy",
        "confidence",
        "metadata",
        "currentTask",
      ])
        expect(a).toHaveProperty(k);
      expect(a.status).toBe("stopped");
    }
    expect((await t.call("GET", "/api/metrics", { headers: user.h })).json).toEqual({
      totalTrends: 0,
      totalComponents: 0,
      activeTests: 0,
      averageAccuracy: null,
      decidedPredictions: 0,
      correctPredictions: 0,
      simulatedDecisions: 0,
    });
  });

  test("limits are validated and capped at 100", async () => {
    const t = app();
    const { user } = await people(t);
    for (const p of [
      "/api/activity?limit=101",
      "/api/activity?limit=0",
      "/api/activity?limit=abc",
      "/api/trends?limit=500",
      "/api/components?limit=-1",
      "/api/tests?status=weird",
    ]) {
      const r = await t.call("GET", p, { headers: user.h });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatch(/limit|status/);
    }
    expect((await t.call("GET", "/api/activity?limit=100", { headers: user.h })).status).toBe(200);
  });

  test("only admins control the system; the state is reported to everyone", async () => {
    const t = app();
    const { admin, user } = await people(t);
    for (const action of ["start", "stop", "restart"]) {
      const r = await t.call("POST", `/api/system/${action}`, { headers: user.h });
      expect(r.status).toBe(403);
      expect(r.json.error).toBe("Only admins can start, stop or restart the agent system");
    }
    expect((await t.call("GET", "/api/system/status", { headers: user.h })).json.isActive).toBe(false);
    const started = await t.call("POST", "/api/system/start", { headers: admin.h });
    expect(started.status).toBe(200);
    expect(started.json.isActive).toBe(true);
    expect((await t.call("GET", "/api/system/status", { headers: user.h })).json.isActive).toBe(true);
    const stopped = await t.call("POST", "/api/system/stop", { headers: admin.h });
    expect(stopped.json.isActive).toBe(false);
    const log = (await t.call("GET", "/api/activity?limit=50&type=system", { headers: user.h })).json.map(
      (e: { message: string }) => e.message,
    );
    expect(log).toContain("System Started");
    expect(log).toContain("System Stopped");
    const agents = (await t.call("GET", "/api/agents", { headers: user.h })).json;
    expect(agents.every((a: { status: string }) => a.status === "stopped")).toBe(true);
  });

  test("activity: newest first, filters, and other users' private entries stay private", async () => {
    const t = app();
    const { admin, user } = await people(t);
    await t.services.activity.record({
      type: "comparison",
      status: "success",
      message: "admin's comparison finished",
      userId: admin.user.id,
    });
    await t.services.activity.record({ type: "comparison", status: "error", message: "user's comparison failed", userId: user.user.id });
    await t.services.activity.record({ type: "system", status: "info", message: "shared note" });
    const mine = (await t.call("GET", "/api/activity?limit=50", { headers: user.h })).json.map((e: { message: string }) => e.message);
    expect(mine).toEqual(["shared note", "user's comparison failed"]);
    const all = (await t.call("GET", "/api/activity?limit=50", { headers: admin.h })).json;
    expect(all).toHaveLength(3);
    expect(all[0].createdAt >= all[2].createdAt).toBe(true);
    const errors = (await t.call("GET", "/api/activity?limit=50&status=error", { headers: admin.h })).json;
    expect(errors.map((e: { message: string }) => e.message)).toEqual(["user's comparison failed"]);
    const older = (await t.call("GET", `/api/activity?limit=50&before=${all[0].id}`, { headers: admin.h })).json;
    expect(older).toHaveLength(2);
  });

  test("trend settings: defaults from the spec, admins edit, validation messages", async () => {
    const t = app();
    const { admin, user } = await people(t);
    const s = (await t.call("GET", "/api/trends/settings", { headers: user.h })).json;
    expect(s).toMatchObject({ frequency: 30, confidenceThreshold: 70, maxResults: 20, aiDetectionConfidence: 80 });
    expect((await t.call("PUT", "/api/trends/settings", { headers: user.h, body: s })).status).toBe(403);
    const bad = await t.call("PUT", "/api/trends/settings", { headers: admin.h, body: { ...s, frequency: 2 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("Frequency must be between 10 and 86400 seconds");
    const ok = await t.call("PUT", "/api/trends/settings", {
      headers: admin.h,
      body: { ...s, maxResults: 5, customKeywords: ["AI", " AI ", "pricing"] },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.customKeywords).toEqual(["AI", "pricing"]);
    expect((await t.call("GET", "/api/trends/settings", { headers: user.h })).json.maxResults).toBe(5);
  });

  test("components and tests built from one user's capture are theirs (and admins'); others get 404", async () => {
    const t = app();
    const { admin, user } = await people(t);
    const other = await t.signup();
    insertComparison(t.db, user.user.id, [{ url: "https://acme.example/" }]);
    const { AgentLoop } = await import("#server/modules/agents/loop/loop");
    const loop = new AgentLoop({ db: sqliteSql(t.db), emit: () => {}, log: () => {} });
    await loop.designNinja.run();
    await loop.designNinja.run();
    await loop.testCommander.run();
    const [c] = (await t.call("GET", "/api/components?limit=10", { headers: user.h })).json;
    expect(c.sourceLabel).toBe("acme.example");
    expect((await t.call("GET", `/api/components/${c.id}`, { headers: t.auth(other.token) })).status).toBe(404);
    expect((await t.call("GET", `/api/components/${c.id}`, { headers: admin.h })).status).toBe(200);
    expect((await t.call("GET", "/api/components?limit=10", { headers: t.auth(other.token) })).json).toEqual([]);
    const [test] = (await t.call("GET", "/api/tests?status=active", { headers: user.h })).json;
    expect(test.ingestKey).toBeString();
    expect((await t.call("GET", `/api/tests/${test.id}`, { headers: t.auth(other.token) })).status).toBe(404);
    expect((await t.call("GET", "/api/metrics", { headers: t.auth(other.token) })).json.activeTests).toBe(0);
    expect((await t.call("GET", "/api/metrics", { headers: user.h })).json.activeTests).toBe(1);
  });

  test("ingest: real events by key or by the owner, counted, refused when they make no sense", async () => {
    const t = app();
    const { user } = await people(t);
    const other = await t.signup();
    const { AgentLoop } = await import("#server/modules/agents/loop/loop");
    insertComparison(t.db, user.user.id, [{ url: "https://acme.example/" }]);
    const loop = new AgentLoop({ db: sqliteSql(t.db), emit: () => {}, log: () => {} });
    await loop.designNinja.run();
    await loop.designNinja.run();
    await loop.testCommander.run();
    const [test] = (await t.call("GET", "/api/tests?status=active", { headers: user.h })).json;
    const path = `/api/tests/${test.id}/events`;

    expect((await t.call("POST", path, { body: { variant: "A", event: "impression" } })).status).toBe(401);
    expect((await t.call("POST", path, { body: { variant: "A", event: "impression" }, headers: { "x-ingest-key": "nope" } })).status).toBe(
      401,
    );
    expect((await t.call("POST", path, { body: { variant: "A", event: "impression" }, headers: t.auth(other.token) })).status).toBe(404);
    expect((await t.call("POST", path, { body: { variant: "C", event: "impression" }, headers: user.h })).json.error).toBe(
      "variant must be A or B",
    );
    expect((await t.call("POST", path, { body: { variant: "A", event: "impression", count: 5000 }, headers: user.h })).status).toBe(400);

    const byKey = await t.call("POST", path, {
      body: { variant: "A", event: "impression", count: 10 },
      headers: { "x-ingest-key": test.ingestKey },
    });
    expect(byKey.status).toBe(200);
    expect(byKey.json.traffic).toBe("real");
    expect(byKey.json.ingestKey).toBeUndefined();
    const conv = await t.call("POST", path, { body: { variant: "A", event: "conversion", count: 3 }, headers: user.h });
    expect(conv.json.variants[0]).toMatchObject({ label: "A", impressions: 10, conversions: 3 });
    const tooMany = await t.call("POST", path, { body: { variant: "A", event: "conversion", count: 8 }, headers: user.h });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error).toBe("Conversions cannot exceed impressions for a variant");

    // Real traffic means the simulator never touches this test.
    await loop.testCommander.run();
    const after = (await t.call("GET", `/api/tests/${test.id}`, { headers: user.h })).json;
    expect(after.variants[0].impressions).toBe(10);
    expect(after.simulated).toBe(false);
    const series = (await t.call("GET", "/api/analytics", { headers: user.h })).json;
    expect(series.traffic.reduce((n: number, b: { impressions: number }) => n + b.impressions, 0)).toBe(10);
    expect(series.traffic.reduce((n: number, b: { conversions: number }) => n + b.conversions, 0)).toBe(3);
  });

  test("ingest is rate limited per address: 600 a minute, then 429 with Retry-After", async () => {
    const t = app();
    const path = "/api/tests/no-such-test/events";
    const body = { variant: "A", event: "impression" };
    // Every call counts, answered or refused: a flood of bad keys is throttled like good ones.
    for (let i = 0; i < 600; i++) expect((await t.call("POST", path, { body, headers: { "x-ingest-key": "nope" } })).status).toBe(401);
    const limited = await t.call("POST", path, { body, headers: { "x-ingest-key": "nope" } });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: "Too many requests. Slow down and try again shortly." });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("simulated tests refuse real events", async () => {
    const clock = { t: Date.now() };
    const t = app();
    const { user } = await people(t);
    const { AgentLoop } = await import("#server/modules/agents/loop/loop");
    const loop = new AgentLoop({ db: sqliteSql(t.db), emit: () => {}, log: () => {}, now: () => clock.t });
    await loop.designNinja.run();
    await loop.designNinja.run();
    await loop.testCommander.run();
    clock.t += 60_000;
    await loop.testCommander.run();
    const [test] = (await t.call("GET", "/api/tests?status=active", { headers: user.h })).json;
    expect(test.traffic).toBe("simulated");
    const admin = (
      await t.call("POST", "/api/auth/login", {
        body: {
          email: (await t.db.query<{ email: string }, []>("SELECT email FROM users WHERE role = 'admin'").get())!.email,
          password: "correct-horse-battery",
        },
      })
    ).json;
    const r = await t.call("POST", `/api/tests/${test.id}/events`, {
      body: { variant: "A", event: "impression" },
      headers: t.auth(admin.accessToken),
    });
    expect(r.status).toBe(409);
  });

  test("analytics: similarity distribution is scoped to the viewer's comparisons", async () => {
    const t = app();
    const { admin, user } = await people(t);
    insertComparison(t.db, user.user.id, [{ url: "https://a.example/" }, { url: "https://b.example/" }], { similarity: [0.42, 0.47] });
    insertComparison(t.db, admin.user.id, [{ url: "https://c.example/" }, { url: "https://d.example/" }], { similarity: [0.91] });
    const mine = (await t.call("GET", "/api/analytics?range=30d", { headers: user.h })).json;
    expect(mine.similarity.scope).toBe("yours");
    expect(mine.similarity.total).toBe(2);
    expect(mine.similarity.buckets[4].count).toBe(2);
    expect(mine.traffic).toHaveLength(30);
    const all = (await t.call("GET", "/api/analytics", { headers: admin.h })).json;
    expect(all.similarity.total).toBe(3);
    expect(all.similarity.buckets[9].count).toBe(1);
    expect(all.traffic).toHaveLength(48);
    expect((await t.call("GET", "/api/analytics?range=7y", { headers: admin.h })).status).toBe(400);
  });

  test("Mission Control and the agents' pages render on the server with their data", async () => {
    const t = app();
    const { admin } = await people(t);
    await t.services.activity.record({ type: "system", status: "info", message: "Rendered on the server" });
    const pages: [string, string[]][] = [
      [
        "/dashboard",
        [
          "Mission Control",
          "Trends Discovered",
          "Components Generated",
          "Active Tests",
          "Prediction Accuracy",
          "Launch System",
          "Stop System",
          "Offline",
          "AI Agent Health",
          "System Offline",
          "TrendHunter",
          "Live Activity Stream",
          "Rendered on the server",
          "Compare Websites",
          "Popular",
          "Discover Trends",
          "View Analytics",
          "A/B Testing",
          "System Config",
          "Generate Components",
        ],
      ],
      ["/trends", ["Trends", "No trends yet", "Trend discovery settings", "Frequency (seconds)"]],
      ["/generate", ["Generate Components", "No components yet"]],
      ["/tests", ["A/B Testing", "Active tests (0)", "Completed tests (0)"]],
      ["/analytics", ["Analytics", "Tests over time", "Prediction accuracy over time", "Similarity distribution across comparisons"]],
      ["/activity", ["Activity", "Rendered on the server"]],
    ];
    for (const [path, texts] of pages) {
      const r = await t.call("GET", path, { headers: { cookie: admin.cookie } });
      expect(r.status).toBe(200);
      for (const text of texts) expect(r.text).toContain(text);
    }
  });
});
