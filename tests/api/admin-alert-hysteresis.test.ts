// Host alerts with a fake clock: hysteresis, cooldown and one alert per episode, whatever the
// sampler's rhythm (it samples every 5 s).
import { describe, expect, test } from "bun:test";
import { formatElapsed } from "#server/lib/format";
import { HOST_ALERT_COOLDOWN_MS, hostAlertsService } from "#server/modules/admin/host-alerts";
import type { AdminRepository } from "#server/modules/admin/repository";
import type { AuditService } from "#server/modules/audit/service";
import { metricsSample } from "./admin-support";

const SAMPLE_MS = 5000;

function rig(cpuThreshold = 80) {
  let clock = Date.parse("2026-03-01T12:00:00Z");
  const activity: { status: string; message: string; details: string }[] = [];
  const published: unknown[] = [];
  const settings = { cpuThreshold, memoryThreshold: 85, errorRateThreshold: 5, emailNotifications: false, slackNotifications: false };
  const alerts = hostAlertsService({
    repo: { getSetting: () => settings, putSetting: () => {} } as unknown as AdminRepository,
    audit: { record: async () => {}, recordBy: async () => {} } as unknown as AuditService,
    live: { publish: (m) => published.push(m) },
    activity: { record: async (e) => void activity.push(e) },
    now: () => clock,
  });
  /** Samples `cpu` every 5 s for `ms`; returns how many alerts were raised. */
  const hold = async (cpu: number | ((i: number) => number), ms: number) => {
    let raised = 0;
    for (let i = 0; i * SAMPLE_MS < ms; i++) {
      raised += (await alerts.check(metricsSample({ cpu: typeof cpu === "number" ? cpu : cpu(i), memory: 10, errorRate: 0 }))).length;
      clock += SAMPLE_MS;
    }
    return raised;
  };
  return { alerts, activity, published, hold, advance: (ms: number) => (clock += ms) };
}

describe("host alert hysteresis", () => {
  test("a value held above the threshold for 10 minutes gives one alert, and it is one ongoing alert with its duration", async () => {
    const r = rig();
    expect(await r.hold(95, 10 * 60_000)).toBe(1);
    expect(r.published).toHaveLength(1);
    expect(r.activity.map((e) => e.status)).toEqual(["warning"]);
    const { ongoing, cooldownMs } = await r.alerts.ongoing();
    expect(ongoing).toHaveLength(1);
    expect(ongoing[0]).toMatchObject({
      metric: "cpu",
      peak: 95,
      threshold: 80,
      since: "2026-03-01T12:00:00.000Z",
      above: true,
      easing: false,
    });
    expect(ongoing[0]!.durationMs).toBe(10 * 60_000);
    expect(cooldownMs).toBe(HOST_ALERT_COOLDOWN_MS);
  });

  test("a busy host spiking and dipping every 10-20 s stays one alert", async () => {
    const r = rig();
    // 30 minutes of 90% for 10 s, then 40% for 10 s (well below the re-arm line), over and over.
    expect(await r.hold((i) => (i % 4 < 2 ? 90 : 40), 30 * 60_000)).toBe(1);
    expect(r.published).toHaveLength(1);
  });

  test("the alert ends once the value stayed re-armed through the cooldown, saying how long it lasted; the next crossing alerts again", async () => {
    const r = rig();
    expect(await r.hold(95, 4 * 60_000)).toBe(1);
    expect(await r.hold(75, 5 * 60_000)).toBe(0); // under the line but above 72 (90% of 80): not re-armed
    expect((await r.alerts.ongoing()).ongoing[0]).toMatchObject({ above: false, easing: false, durationMs: 235_000 });
    expect(await r.hold(50, 60_000)).toBe(0);
    // Easing: below the re-arm line; the duration is the time it spent above the threshold.
    expect((await r.alerts.ongoing()).ongoing[0]).toMatchObject({ metric: "cpu", above: false, easing: true, durationMs: 235_000 });
    expect(await r.hold(50, HOST_ALERT_COOLDOWN_MS)).toBe(0);
    expect((await r.alerts.ongoing()).ongoing).toEqual([]);
    const resolved = r.activity.at(-1)!;
    expect(resolved.status).toBe("success");
    expect(resolved.message).toBe("CPU usage back under 80% after 3m 55s");
    expect(resolved.details).toContain("peak 95%");
    expect(await r.hold(95, 60_000)).toBe(1);
    expect(r.published).toHaveLength(2);
  });

  test("hovering at the threshold never re-arms", async () => {
    const r = rig();
    expect(await r.hold((i) => (i % 2 ? 81 : 78), 20 * 60_000)).toBe(1);
  });

  test("durations read as people say them", async () => {
    expect(formatElapsed(42_000)).toBe("42s");
    expect(formatElapsed(4 * 60_000 + 10_000)).toBe("4m 10s");
    expect(formatElapsed(62 * 60_000)).toBe("1h 2m");
  });
});
