// Pure display rules for the admin console (spec §4 health rule, §2 uptime in days/hours/minutes).
import type { SystemMetrics } from "#server/modules/admin/model";

export type Health = "Healthy" | "Warning" | "Critical";

/** Critical above CPU 90, memory 90 or error rate 5; Warning above CPU 70, memory 80 or error rate 1; else Healthy. */
export function healthOf(m: Pick<SystemMetrics, "cpu" | "memory" | "errorRate">): Health {
  if (m.cpu > 90 || m.memory > 90 || m.errorRate > 5) return "Critical";
  if (m.cpu > 70 || m.memory > 80 || m.errorRate > 1) return "Warning";
  return "Healthy";
}

export const healthColor = (h: Health) => (h === "Critical" ? "red" : h === "Warning" ? "amber" : "green") as "red" | "amber" | "green";

/** Bar colour for a percentage against the same bands as the health rule. */
export function barColor(pct: number, warnAbove: number, critAbove: number): "green" | "amber" | "red" {
  return pct > critAbove ? "red" : pct > warnAbove ? "amber" : "green";
}

export function formatUptime(ms: number): string {
  const totalMinutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  return `${days}d ${hours}h ${minutes}m`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

export const formatRate = (bytesPerSecond: number) => `${formatBytes(bytesPerSecond)}/s`;

export const formatCount = (n: number) => n.toLocaleString("en-US");

// Dates are shared with other features (API keys), and alert durations with the server's alert
// messages, so those rules live in web/lib.
export { formatDateTime, formatElapsed as formatAlertDuration } from "#web/lib/format";
