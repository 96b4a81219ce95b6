import type { SystemMetrics } from "#server/modules/admin/model";
import type { makeTestApp } from "#tests/support/app";

/** A host sample with quiet defaults; tests raise the figure they are about. */
export const metricsSample = (over: Partial<SystemMetrics> = {}): SystemMetrics => ({
  cpu: 10,
  memory: 20,
  disk: 30,
  network: null,
  uptime: 1000,
  activeConnections: 1,
  connections: { http: 1, sockets: 0 },
  totalRequests: 1,
  errorRate: 0,
  sampledAt: new Date().toISOString(),
  ...over,
});

/** Saves alert settings as `admin`: CPU at 50 %, the rest at their defaults, both channels off unless given. */
export function saveAlertSettings(t: ReturnType<typeof makeTestApp>, token: string, over: Record<string, unknown> = {}) {
  return t.call("PUT", "/api/admin/alert-settings", {
    headers: t.auth(token),
    body: { cpuThreshold: 50, memoryThreshold: 85, errorRateThreshold: 5, emailNotifications: false, slackNotifications: false, ...over },
  });
}
