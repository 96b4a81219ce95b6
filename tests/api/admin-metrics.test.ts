import { describe, expect, test } from "bun:test";
import type { LiveSocket } from "#server/live/hub";
import { HostSampler, parseMeminfo, parseNetDev, parseProcStat, readDiskPercent } from "#server/modules/admin/host-metrics";
import type { SystemMetrics } from "#server/modules/admin/model";
import { formatUptime, healthOf } from "#web/features/admin/format";
import { HOST_ALERT_COOLDOWN_MS } from "#server/modules/admin/host-alerts";
import { makeTestApp, TEST_ON_POSTGRES } from "#tests/support/app";
import type { DatabaseStats } from "#server/modules/admin/model";
import { metricsSample, saveAlertSettings } from "./admin-support";

function socketOf(userId: string, role: "user" | "admin") {
  const s = { userId, role, messages: [] as { type: string; payload: any }[] } as LiveSocket & {
    messages: { type: string; payload: any }[];
  };
  s.send = (d: string) => void s.messages.push(JSON.parse(d));
  s.close = () => {};
  return s;
}

const sample = metricsSample;

describe("system metrics", () => {
  test("real figures: percentages in range, uptime grows, the request counter counts, 5xx move the error rate", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const user = await t.signup();
    const h = t.auth(admin.token);
    const first = (await t.call("GET", "/api/admin/system-metrics", { headers: h })).json as SystemMetrics;
    for (const k of ["cpu", "memory", "disk"] as const) {
      expect(first[k]).toBeGreaterThanOrEqual(0);
      expect(first[k]).toBeLessThanOrEqual(100);
    }
    expect(first.memory).toBeGreaterThan(0); // a running host always uses some memory
    expect(first.uptime).toBeGreaterThan(0);
    expect(first.activeConnections).toBe(first.connections.http + first.connections.sockets);
    expect(first.connections.http).toBeGreaterThanOrEqual(1); // this very request
    expect(first.errorRate).toBe(0);
    if (first.network) {
      expect(first.network.in).toBeGreaterThanOrEqual(0);
      expect(first.network.out).toBeGreaterThanOrEqual(0);
    }

    for (let i = 0; i < 3; i++) await t.call("GET", "/api/health");
    // Maintenance 503s are real 5xx answers.
    await t.call("POST", "/api/admin/maintenance", { headers: h, body: { enabled: true } });
    for (let i = 0; i < 2; i++) expect((await t.call("GET", "/api/comparisons", { headers: t.auth(user.token) })).status).toBe(503);
    await Bun.sleep(5);
    const second = (await t.call("GET", "/api/admin/system-metrics", { headers: h })).json as SystemMetrics;
    expect(second.totalRequests).toBeGreaterThanOrEqual(first.totalRequests + 7);
    expect(second.uptime).toBeGreaterThan(first.uptime);
    expect(second.errorRate).toBeGreaterThan(0);
    expect(second.errorRate).toBeLessThan(100);
  });

  test("kernel counters parse as the kernel writes them", () => {
    const stat = "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\n";
    expect(parseProcStat(stat)).toEqual({ idle: 850, total: 1000 });
    expect(parseProcStat("garbage")).toBeNull();
    const meminfo = "MemTotal:       1000000 kB\nMemFree:         100000 kB\nMemAvailable:    250000 kB\n";
    expect(parseMeminfo(meminfo)).toBe(75);
    const netdev = [
      "Inter-|   Receive                                                |  Transmit",
      " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed",
      "    lo: 999999     10    0    0    0     0          0         0   999999     10    0    0    0     0       0          0",
      "  eth0: 1000      10    0    0    0     0          0         0     2000     20    0    0    0     0       0          0",
      "  eth1: 500       10    0    0    0     0          0         0      100     20    0    0    0     0       0          0",
    ].join("\n");
    expect(parseNetDev(netdev)).toEqual({ rx: 1500, tx: 2100 });
  });

  test("CPU and network are rates between two readings", async () => {
    const cpu = [
      { idle: 0, total: 0 },
      { idle: 300, total: 1000 },
    ];
    const net = [
      { rx: 0, tx: 0 },
      { rx: 5000, tx: 1000 },
    ];
    let i = 0;
    const host = new HostSampler("/tmp", 20, {
      cpu: () => cpu[Math.min(i, 1)]!,
      net: () => net[Math.min(i++, 1)]!,
      memory: () => 42,
      disk: () => 7,
    });
    const s = await host.sample();
    expect(s.cpu).toBe(70);
    expect(s.memory).toBe(42);
    expect(s.disk).toBe(7);
    expect(s.network!.in).toBeGreaterThan(0);
    expect(s.network!.in).toBeGreaterThan(s.network!.out);
  });

  test("disk usage reads the filesystem of DATA_DIR, even before it exists", () => {
    const pct = readDiskPercent("/tmp/does/not/exist/yet");
    expect(pct).toBeGreaterThanOrEqual(0);
    expect(pct).toBeLessThanOrEqual(100);
  });

  test("the sampler pushes SYSTEM_METRICS to admins only", async () => {
    const t = makeTestApp();
    const admin = socketOf("a", "admin");
    const user = socketOf("u", "user");
    t.services.live.add(admin);
    t.services.live.add(user);
    const m = await t.services.admin.sampler.tick();
    // A busy host may also cross an alert threshold (an ALERT, also admins-only); metrics come once.
    const metrics = admin.messages.filter((x) => x.type === "SYSTEM_METRICS");
    expect(metrics.length).toBe(1);
    expect(admin.messages.every((x) => x.type === "SYSTEM_METRICS" || x.type === "ALERT")).toBe(true);
    expect(metrics[0]!.payload.cpu).toBe(m.cpu);
    expect(metrics[0]!.payload.connections.sockets).toBe(2);
    expect(user.messages).toEqual([]);
  });
});

describe("database figures", () => {
  test("name the database the installation runs on; on PostgreSQL they say how backups are made", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const r = await t.call("GET", "/api/admin/database-stats", { headers: t.auth(admin.token) });
    expect(r.status).toBe(200);
    const s = r.json as DatabaseStats;
    expect(s.totalRecords).toBeGreaterThanOrEqual(1); // the admin's own account
    expect(s.connections).toBeGreaterThanOrEqual(1);
    if (TEST_ON_POSTGRES) {
      expect(s.engine).toBe("postgres");
      expect(s.engineDetail).toMatch(/^postgres \d+\.\d+/);
      expect(s.backupAdvice).toContain("pg_dump");
    } else {
      expect(s).toMatchObject({ engine: "sqlite", backupAdvice: null });
      expect(s.engineDetail).toMatch(/^sqlite \d+\.\d+/);
    }
  });
});

describe("alert settings and alerts", () => {
  test("defaults, validation and saving", async () => {
    const t = makeTestApp();
    const admin = await t.signup();
    const h = t.auth(admin.token);
    const initial = await t.call("GET", "/api/admin/alert-settings", { headers: h });
    expect(initial.json.settings).toEqual({
      cpuThreshold: 80,
      memoryThreshold: 85,
      errorRateThreshold: 5,
      emailNotifications: true,
      slackNotifications: false,
    });
    const good = { cpuThreshold: 75, memoryThreshold: 90, errorRateThreshold: 2.5, emailNotifications: false, slackNotifications: true };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...good, cpuThreshold: 75.5 }, "CPU threshold must be a whole number"],
      [{ ...good, cpuThreshold: 0 }, "CPU threshold must be between 1 and 100"],
      [{ ...good, memoryThreshold: 101 }, "Memory threshold must be between 1 and 100"],
      [{ ...good, memoryThreshold: "90" }, "Memory threshold must be a number"],
      [{ ...good, errorRateThreshold: 2.55 }, "Error rate threshold moves in steps of 0.1"],
      [{ ...good, errorRateThreshold: 0 }, "Error rate threshold must be between 0.1 and 100"],
      [{ ...good, slackNotifications: "yes" }, "slackNotifications must be true or false"],
    ];
    for (const [body, message] of bad) {
      const r = await t.call("PUT", "/api/admin/alert-settings", { headers: h, body });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe(message);
    }
    const saved = await t.call("PUT", "/api/admin/alert-settings", { headers: h, body: good });
    expect(saved.status).toBe(200);
    expect(saved.json.settings).toEqual(good);
    expect((await t.call("GET", "/api/admin/alert-settings", { headers: h })).json.settings).toEqual(good);
    const steps = await t.call("PUT", "/api/admin/alert-settings", { headers: h, body: { ...good, errorRateThreshold: 0.3 } });
    expect(steps.status).toBe(200); // 0.3 is a float that is not exactly 3 * 0.1; still a valid step
  });

  test("crossing a threshold raises one alert: audit entry, activity entry, live ALERT to admins; it re-arms after recovery", async () => {
    let clock = Date.now();
    const t = makeTestApp({ now: () => clock });
    const admin = await t.signup();
    const h = t.auth(admin.token);
    await t.call("PUT", "/api/admin/alert-settings", {
      headers: h,
      body: { cpuThreshold: 50, memoryThreshold: 85, errorRateThreshold: 5, emailNotifications: true, slackNotifications: false },
    });
    const adminSocket = socketOf(admin.user.id, "admin");
    const userSocket = socketOf("someone", "user");
    t.services.live.add(adminSocket);
    t.services.live.add(userSocket);
    const alerts = t.services.admin.hostAlerts;

    expect(await alerts.check(sample({ cpu: 40 }))).toEqual([]);
    const raised = await alerts.check(sample({ cpu: 63.2 }));
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ metric: "cpu", value: 63.2, threshold: 50 });
    expect(await alerts.check(sample({ cpu: 70 }))).toEqual([]); // still above: no repeat
    expect(await alerts.check(sample({ cpu: 48 }))).toEqual([]); // under, but within the re-arm band
    expect(await alerts.check(sample({ cpu: 70 }))).toEqual([]);
    await alerts.check(sample({ cpu: 30 }));
    clock += HOST_ALERT_COOLDOWN_MS; // recovered, and stayed recovered through the cooldown
    await alerts.check(sample({ cpu: 30 }));
    expect(await alerts.check(sample({ cpu: 70, errorRate: 9 }))).toHaveLength(2);

    expect(adminSocket.messages.filter((m) => m.type === "ALERT")).toHaveLength(3);
    expect(userSocket.messages).toEqual([]);
    const log = await t.call("GET", "/api/admin/audit-logs?action=alert.raised", { headers: h });
    expect(log.json.total).toBe(3);
    expect(log.json.entries[2]).toMatchObject({ actorId: null, target: "cpu", details: { value: 63.2, threshold: 50 } });
    const activity = await t.call("GET", "/api/activity?limit=10&type=system&status=warning", { headers: h });
    expect(activity.json.map((e: { message: string }) => e.message)).toContain("CPU usage at 63.2% crossed the 50% alert threshold");
  });
});

describe("ongoing alerts through the API", () => {
  test("GET /api/admin/alerts: a still-high figure is one open alert whose duration grows; it ends after the cooldown; admins only", async () => {
    let clock = Date.parse("2026-03-01T12:00:00Z");
    const t = makeTestApp({ now: () => clock });
    const admin = await t.signup();
    const user = await t.signup();
    const h = t.auth(admin.token);
    await saveAlertSettings(t, admin.token);
    const read = async () => (await t.call("GET", "/api/admin/alerts", { headers: h })).json;
    expect(await read()).toEqual({ ongoing: [], at: "2026-03-01T12:00:00.000Z", cooldownMs: HOST_ALERT_COOLDOWN_MS });

    const alerts = t.services.admin.hostAlerts;
    for (let i = 0; i < 24; i++) {
      await alerts.check(sample({ cpu: i === 10 ? 88 : 70 }));
      clock += 5000;
    }
    const open = await read();
    expect(open.ongoing).toEqual([
      {
        metric: "cpu",
        threshold: 50,
        rearmBelow: 45,
        since: "2026-03-01T12:00:00.000Z",
        peak: 88,
        durationMs: 120_000,
        above: true,
        easing: false,
      },
    ]);
    await alerts.check(sample({ cpu: 20 }));
    expect((await read()).ongoing[0]).toMatchObject({ above: false, easing: true, durationMs: 115_000 });
    clock += HOST_ALERT_COOLDOWN_MS;
    await alerts.check(sample({ cpu: 20 }));
    expect((await read()).ongoing).toEqual([]);

    expect((await t.call("GET", "/api/admin/alerts", { headers: t.auth(user.token) })).status).toBe(403);
    expect((await t.call("GET", "/api/admin/alerts")).status).toBe(401);
    const doc = (await t.call("GET", "/api/openapi.json")).json;
    const schema = doc.paths["/api/admin/alerts"].get.responses["200"].content["application/json"].schema;
    expect(schema.required).toEqual(expect.arrayContaining(["ongoing", "at", "cooldownMs"]));
    expect(JSON.stringify(schema.properties.ongoing)).toContain('"durationMs"');
  });
});

describe("console display rules", () => {
  test("health: Critical above 90/90/5, Warning above 70/80/1, else Healthy", () => {
    expect(healthOf({ cpu: 90, memory: 90, errorRate: 5 })).toBe("Warning");
    expect(healthOf({ cpu: 90.1, memory: 0, errorRate: 0 })).toBe("Critical");
    expect(healthOf({ cpu: 0, memory: 90.1, errorRate: 0 })).toBe("Critical");
    expect(healthOf({ cpu: 0, memory: 0, errorRate: 5.1 })).toBe("Critical");
    expect(healthOf({ cpu: 70.1, memory: 0, errorRate: 0 })).toBe("Warning");
    expect(healthOf({ cpu: 0, memory: 80.1, errorRate: 0 })).toBe("Warning");
    expect(healthOf({ cpu: 0, memory: 0, errorRate: 1.1 })).toBe("Warning");
    expect(healthOf({ cpu: 70, memory: 80, errorRate: 1 })).toBe("Healthy");
  });

  test("uptime in days, hours and minutes", () => {
    expect(formatUptime(0)).toBe("0d 0h 0m");
    expect(formatUptime(59_999)).toBe("0d 0h 0m");
    expect(formatUptime(((2 * 24 + 3) * 60 + 4) * 60_000 + 59_000)).toBe("2d 3h 4m");
  });
});
