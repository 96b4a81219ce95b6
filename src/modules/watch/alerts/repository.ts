import type { Db } from "#server/db/connection";
import type { ChangeKind, Severity } from "#server/modules/changes/model";
import type { AlertView, DeliveryView } from "./model";

/**
 * How a `members` rule is stored: as an e-mail rule (the table's channel check predates it) whose
 * destination is this word, which no e-mail address can be (addresses have an @).
 */
export const MEMBERS_DESTINATION = "members";

export const isMembersRule = (r: Pick<AlertRuleRow, "channel" | "destination">) =>
  r.channel === "email" && r.destination === MEMBERS_DESTINATION;

export interface AlertRuleRow {
  id: string;
  comparison_id: string;
  owner_id: string;
  channel: "webhook" | "email";
  destination: string;
  min_severity: Severity;
  kinds: string;
  created_at: string;
}

interface DeliveryRow {
  alert_id: string;
  run_id: string;
  status: "sent" | "failed";
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
}

export const toAlertView = (r: AlertRuleRow): AlertView => ({
  id: r.id,
  comparisonId: r.comparison_id,
  channel: isMembersRule(r) ? "members" : r.channel,
  url: r.channel === "webhook" ? r.destination : null,
  email: r.channel === "email" && !isMembersRule(r) ? r.destination : null,
  minSeverity: r.min_severity,
  kinds: JSON.parse(r.kinds) as ChangeKind[],
  createdAt: r.created_at,
});

const toDeliveryView = (r: DeliveryRow): DeliveryView => ({
  alertId: r.alert_id,
  runId: r.run_id,
  status: r.status,
  attempts: r.attempts,
  lastError: r.last_error,
  sentAt: r.sent_at,
});

export function alertsRepository(db: Db) {
  const q = {
    insert: db.query<null, [string, string, string, string, string, string, string, string]>(
      "INSERT INTO alert_rules (id, comparison_id, owner_id, channel, destination, min_severity, kinds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    get: db.query<AlertRuleRow, [string]>("SELECT * FROM alert_rules WHERE id = ?"),
    byComparison: db.query<AlertRuleRow, [string, string]>(
      "SELECT * FROM alert_rules WHERE comparison_id = ? AND owner_id = ? ORDER BY created_at, id",
    ),
    count: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM alert_rules WHERE comparison_id = ?"),
    remove: db.query<null, [string, string]>("DELETE FROM alert_rules WHERE id = ? AND owner_id = ?"),
    logDelivery: db.query<null, [string, string, string, string, string, string, number, string | null, string | null, string]>(
      `INSERT INTO alert_deliveries (id, alert_id, comparison_id, owner_id, run_id, status, attempts, last_error, sent_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // The addresses a members rule reaches: members of the workspace who receive alerts, with an enabled account.
    recipients: db.query<{ email: string }, [string]>(
      `SELECT u.email FROM workspace_members m JOIN users u ON u.id = m.user_id
        WHERE m.workspace_id = ? AND m.alerts = 1 AND u.disabled = 0 ORDER BY m.joined_at, u.id`,
    ),
    deliveries: db.query<DeliveryRow, [string, string, number]>(
      `SELECT alert_id, run_id, status, attempts, last_error, sent_at FROM alert_deliveries
        WHERE comparison_id = ? AND owner_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    ),
  };
  return {
    insert(r: {
      id: string;
      comparisonId: string;
      ownerId: string;
      channel: "webhook" | "email";
      destination: string;
      minSeverity: Severity;
      kinds: ChangeKind[];
      at: string;
    }) {
      q.insert.run(r.id, r.comparisonId, r.ownerId, r.channel, r.destination, r.minSeverity, JSON.stringify(r.kinds), r.at);
    },
    get: (id: string): AlertRuleRow | null => q.get.get(id),
    /** Rules of a comparison, for its owner only. */
    list: (comparisonId: string, ownerId: string): AlertRuleRow[] => q.byComparison.all(comparisonId, ownerId),
    countFor: (comparisonId: string): number => q.count.get(comparisonId)?.n ?? 0,
    remove: (id: string, ownerId: string): boolean => q.remove.run(id, ownerId).changes > 0,
    logDelivery(d: {
      id: string;
      alertId: string;
      comparisonId: string;
      ownerId: string;
      runId: string;
      status: "sent" | "failed";
      attempts: number;
      lastError: string | null;
      sentAt: string | null;
      at: string;
    }) {
      q.logDelivery.run(d.id, d.alertId, d.comparisonId, d.ownerId, d.runId, d.status, d.attempts, d.lastError, d.sentAt, d.at);
    },
    recipients: (workspaceId: string): string[] => q.recipients.all(workspaceId).map((r) => r.email),
    deliveries: (comparisonId: string, ownerId: string, limit = 200): DeliveryView[] =>
      q.deliveries.all(comparisonId, ownerId, limit).map(toDeliveryView),
  };
}

export type AlertsRepository = ReturnType<typeof alertsRepository>;
