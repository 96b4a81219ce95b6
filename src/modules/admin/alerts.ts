import { nowIso } from "#server/lib/ids";
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
  type SystemMetrics,
  alertSettings,
} from "./model";
import type { Mailer } from "./mailer";
import type { AdminRepository } from "./repository";

const KEY = "alerts";
/** An alert re-arms only once the figure falls back below 90% of its threshold, so a value hovering at the line does not flood. */
const REARM_RATIO = 0.9;

const LABEL: Record<AlertMetric, string> = { cpu: "CPU usage", memory: "Memory usage", errorRate: "Error rate" };
const thresholdOf = (s: AlertSettings, m: AlertMetric) =>
  m === "cpu" ? s.cpuThreshold : m === "memory" ? s.memoryThreshold : s.errorRateThreshold;

/** Where else an alert lands: the shared activity feed (written by the agents module). */
export interface ActivitySink {
  record(entry: { type: "system"; status: "warning"; message: string; details: string; metadata: Record<string, unknown> }): void;
}

export function alertsService(deps: {
  repo: AdminRepository;
  audit: AuditService;
  live: Pick<LiveHub, "publish">;
  activity?: ActivitySink;
  /** A Slack-compatible incoming webhook for chat notifications; chat is unavailable without it. */
  webhookUrl?: string;
  /** E-mail is unavailable without one. */
  mailer?: Mailer;
  recipients?: () => string[];
  /** PUBLIC_URL: notifications link to the console there. Without it they carry no link (no guessed host). */
  publicUrl?: string;
  log?: (msg: string, err?: unknown) => void;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const firing = new Set<AlertMetric>();
  const consoleUrl = deps.publicUrl ? `${deps.publicUrl}/super-admin` : null;

  function settings(): AlertSettings {
    const stored = alertSettings.safeParse(deps.repo.getSetting(KEY));
    return stored.success ? stored.data : DEFAULT_ALERT_SETTINGS;
  }

  const answer = (s: AlertSettings): AlertSettingsAnswer => ({ settings: s, channels: { email: Boolean(deps.mailer), chat: Boolean(deps.webhookUrl) } });

  async function notifyEmail(payload: AlertPayload) {
    if (!deps.mailer) return;
    try {
      await deps.mailer.send({
        to: deps.recipients?.() ?? [],
        subject: `Design Intel alert: ${LABEL[payload.metric]} at ${payload.value}%`,
        text: [
          payload.message + ".",
          "",
          `${LABEL[payload.metric]}: ${payload.value}% (threshold ${payload.threshold}%)`,
          `Raised at: ${payload.at}`,
          "",
          "This alert fires once per crossing and re-arms when the figure falls below 90% of its threshold.",
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
    deps.audit.record({
      actorId: null,
      actorEmail: null,
      action: "alert.raised",
      target: payload.metric,
      details: { value: payload.value, threshold: payload.threshold },
    });
    deps.activity?.record({
      type: "system",
      status: "warning",
      message: payload.message,
      details: `${LABEL[payload.metric]} is above its alert threshold`,
      metadata: { metric: payload.metric, value: payload.value, threshold: payload.threshold },
    });
    deps.live.publish({ type: "ALERT", payload }, { kind: "admins" });
    if (s.slackNotifications) void notifyChat(`Design Intel alert: ${payload.message}${consoleUrl ? ` (${consoleUrl})` : ""}`);
    if (s.emailNotifications) void notifyEmail(payload);
  }

  return {
    get: () => answer(settings()),

    save(actor: Actor, input: AlertSettings): AlertSettingsAnswer {
      deps.repo.putSetting(KEY, input, nowIso(now()));
      deps.audit.recordBy(actor, "admin.alert_settings_saved", null, { ...input });
      return answer(input);
    },

    /** Raises each alert once when its figure crosses the threshold; returns what was raised. */
    check(m: SystemMetrics): AlertPayload[] {
      const s = settings();
      const raised: AlertPayload[] = [];
      for (const metric of ALERT_METRICS) {
        const value = m[metric];
        const threshold = thresholdOf(s, metric);
        if (value > threshold && !firing.has(metric)) {
          firing.add(metric);
          const payload: AlertPayload = {
            metric,
            value,
            threshold,
            message: `${LABEL[metric]} at ${value}% crossed the ${threshold}% alert threshold`,
            at: nowIso(now()),
          };
          raise(payload, s);
          raised.push(payload);
        } else if (value <= threshold * REARM_RATIO) firing.delete(metric);
      }
      return raised;
    },
  };
}

export type AlertsService = ReturnType<typeof alertsService>;
