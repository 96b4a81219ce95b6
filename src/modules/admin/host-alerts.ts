// Host-metric alerts: CPU, memory and error rate against the thresholds an admin sets, raised once
// per crossing (hysteresis and cooldown), recorded in the audit log and the activity feed, pushed to
// admins' sockets and optionally sent by e-mail and chat. Users' alerts on a comparison's changes
// are the watch module's (src/modules/watch/alerts).
import { nowIso } from "#server/lib/ids";
import { formatElapsed } from "#server/lib/format";
import type { LiveHub } from "#server/live/hub";
import type { Actor } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import {
  ALERT_METRICS,
  type AlertMetric,
  type AlertPayload,
  type AlertSettings,
  type AlertSettingsAnswer,
  DEFAULT_ALERT_SETTINGS,
  type OngoingAlerts,
  type SystemMetrics,
  alertSettings,
} from "./model";
import type { Mailer } from "./mailer";
import type { AdminRepository } from "./repository";

const KEY = "alerts";
/** An alert re-arms only once the figure falls back below 90% of its threshold, so a value hovering at the line does not flood. */
const REARM_RATIO = 0.9;
/**
 * After a re-arm, a new crossing within this long continues the same alert instead of raising
 * another (a busy host dips and spikes every few seconds); the alert ends, with its duration, once
 * the figure has stayed re-armed this long.
 */
export const HOST_ALERT_COOLDOWN_MS = 10 * 60_000;

/** One alert from its crossing to its end: a still-high value is this, not a stream of alerts. */
interface Episode {
  since: number;
  peak: number;
  /** When the figure last fell below the re-arm line; null while it is above it. */
  rearmedAt: number | null;
  /** The time it last stood above the threshold. */
  lastAbove: number;
  /** Whether the latest sample was above the threshold. */
  above: boolean;
}

const LABEL: Record<AlertMetric, string> = { cpu: "CPU usage", memory: "Memory usage", errorRate: "Error rate" };
const thresholdOf = (s: AlertSettings, m: AlertMetric) =>
  m === "cpu" ? s.cpuThreshold : m === "memory" ? s.memoryThreshold : s.errorRateThreshold;

/** Where else an alert lands: the shared activity feed (written by the agents module). */
export interface ActivitySink {
  record(entry: {
    type: "system";
    status: "warning" | "success";
    message: string;
    details: string;
    metadata: Record<string, unknown>;
  }): Promise<unknown>;
}

export function hostAlertsService(deps: {
  repo: AdminRepository;
  audit: AuditService;
  live: Pick<LiveHub, "publish">;
  activity?: ActivitySink;
  /** A Slack-compatible incoming webhook for chat notifications; chat is unavailable without it. */
  webhookUrl?: string;
  /** E-mail is unavailable without one. */
  mailer?: Mailer;
  recipients?: () => Promise<string[]>;
  /** PUBLIC_URL: notifications link to the console there. Without it they carry no link (no guessed host). */
  publicUrl?: string;
  log?: (msg: string, err?: unknown) => void;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const episodes = new Map<AlertMetric, Episode>();
  const consoleUrl = deps.publicUrl ? `${deps.publicUrl}/super-admin` : null;

  async function settings(): Promise<AlertSettings> {
    const stored = alertSettings.safeParse(await deps.repo.getSetting(KEY));
    return stored.success ? stored.data : DEFAULT_ALERT_SETTINGS;
  }

  const answer = (s: AlertSettings): AlertSettingsAnswer => ({
    settings: s,
    channels: { email: Boolean(deps.mailer), chat: Boolean(deps.webhookUrl) },
  });

  async function notifyEmail(payload: AlertPayload) {
    if (!deps.mailer) return;
    try {
      await deps.mailer.send({
        to: (await deps.recipients?.()) ?? [],
        subject: `Design Intel alert: ${LABEL[payload.metric]} at ${payload.value}%`,
        text: [
          payload.message + ".",
          "",
          `${LABEL[payload.metric]}: ${payload.value}% (threshold ${payload.threshold}%)`,
          `Raised at: ${payload.at}`,
          "",
          "This alert fires once per crossing and re-arms when the figure falls below 90% of its threshold;",
          `a crossing within ${HOST_ALERT_COOLDOWN_MS / 60_000} minutes of that continues this alert rather than raising another.`,
          "Thresholds and notifications: Super Admin → Settings.",
          ...(consoleUrl ? [consoleUrl] : []),
        ].join("\n"),
      });
    } catch (e) {
      deps.log?.("alert e-mail failed", e);
    }
  }

  async function notifyChat(text: string) {
    if (!deps.webhookUrl) return;
    try {
      const res = await fetch(deps.webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) deps.log?.(`alert webhook answered ${res.status}`);
    } catch (e) {
      deps.log?.("alert webhook failed", e);
    }
  }

  function raise(payload: AlertPayload, s: AlertSettings) {
    // The sampler raises alerts in the background; a failed audit write is logged, not thrown at it.
    void deps.audit
      .record({
        actorId: null,
        actorEmail: null,
        action: "alert.raised",
        target: payload.metric,
        details: { value: payload.value, threshold: payload.threshold },
      })
      .catch((e) => deps.log?.("audit of an alert failed", e));
    // In the background, as the audit above: an alert about a full disk must not fail on that disk.
    void deps.activity
      ?.record({
        type: "system",
        status: "warning",
        message: payload.message,
        details: `${LABEL[payload.metric]} is above its alert threshold`,
        metadata: { metric: payload.metric, value: payload.value, threshold: payload.threshold },
      })
      .catch((e) => deps.log?.("activity entry of an alert failed", e));
    deps.live.publish({ type: "ALERT", payload }, { kind: "admins" });
    if (s.slackNotifications) void notifyChat(`Design Intel alert: ${payload.message}${consoleUrl ? ` (${consoleUrl})` : ""}`);
    if (s.emailNotifications) void notifyEmail(payload);
  }

  return {
    get: async () => answer(await settings()),

    async save(actor: Actor, input: AlertSettings): Promise<AlertSettingsAnswer> {
      await deps.repo.putSetting(KEY, input, nowIso(now()));
      await deps.audit.recordBy(actor, "admin.alert_settings_saved", null, { ...input });
      return answer(input);
    },

    /**
     * Raises each alert once per crossing and returns what was raised. Hysteresis: it re-arms only
     * below 90% of the threshold; cooldown: a crossing within HOST_ALERT_COOLDOWN_MS of a re-arm belongs
     * to the alert already open, which ends (one entry, with its duration and peak) only after the
     * figure stayed re-armed that long.
     */
    async check(m: SystemMetrics): Promise<AlertPayload[]> {
      const s = await settings();
      const t = now();
      const raised: AlertPayload[] = [];
      for (const metric of ALERT_METRICS) {
        const value = m[metric];
        const threshold = thresholdOf(s, metric);
        const open = episodes.get(metric);
        if (value > threshold) {
          if (open) {
            open.peak = Math.max(open.peak, value);
            open.lastAbove = t;
            open.rearmedAt = null;
            open.above = true;
            continue;
          }
          episodes.set(metric, { since: t, peak: value, rearmedAt: null, lastAbove: t, above: true });
          const payload: AlertPayload = {
            metric,
            value,
            threshold,
            message: `${LABEL[metric]} at ${value}% crossed the ${threshold}% alert threshold`,
            at: nowIso(t),
          };
          raise(payload, s);
          raised.push(payload);
        } else if (open && value <= threshold * REARM_RATIO) {
          open.above = false;
          open.rearmedAt ??= t;
          if (t - open.rearmedAt < HOST_ALERT_COOLDOWN_MS) continue;
          episodes.delete(metric);
          const lasted = formatElapsed(open.lastAbove - open.since);
          void deps.activity
            ?.record({
              type: "system",
              status: "success",
              message: `${LABEL[metric]} back under ${threshold}% after ${lasted}`,
              details: `One alert, raised ${nowIso(open.since)}; peak ${open.peak}%.`,
              metadata: { metric, threshold, peak: open.peak, since: nowIso(open.since), until: nowIso(open.lastAbove) },
            })
            .catch((e) => deps.log?.("activity entry of an alert failed", e));
        } else if (open) {
          open.above = false;
          open.rearmedAt = null; // back in the band between the two lines: not re-armed
        }
      }
      return raised;
    },

    /** Alerts still open, with how long each has lasted (for the console). */
    async ongoing(): Promise<OngoingAlerts> {
      const s = await settings();
      const t = now();
      return {
        ongoing: [...episodes].map(([metric, e]) => ({
          metric,
          threshold: thresholdOf(s, metric),
          rearmBelow: Math.round(thresholdOf(s, metric) * REARM_RATIO * 100) / 100,
          since: nowIso(e.since),
          peak: e.peak,
          // Time above the threshold, as the alert's end will report it: still counting while above.
          durationMs: (e.above ? t : e.lastAbove) - e.since,
          above: e.above,
          easing: e.rearmedAt !== null,
        })),
        at: nowIso(t),
        cooldownMs: HOST_ALERT_COOLDOWN_MS,
      };
    },
  };
}

export type HostAlertsService = ReturnType<typeof hostAlertsService>;
