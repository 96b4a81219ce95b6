import type { SqlDb } from "#server/db/sql";
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

export function alertsRepository(db: SqlDb) {
  return {
    async insert(r: {
      id: string;
      comparisonId: string;
      ownerId: string;
      channel: "webhook" | "email";
      destination: string;
      minSeverity: Severity;
      kinds: ChangeKind[];
      at: string;
    }): Promise<void> {
      await db.run(
        "INSERT INTO alert_rules (id, comparison_id, owner_id, channel, destination, min_severity, kinds, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [r.id, r.comparisonId, r.ownerId, r.channel, r.destination, r.minSeverity, JSON.stringify(r.kinds), r.at],
      );
    },
    get: (id: string) => db.one<AlertRuleRow>("SELECT * FROM alert_rules WHERE id = $1", [id]),
    /** Rules of a comparison, for its owner only. */
    list: (comparisonId: string, ownerId: string) =>
      db.all<AlertRuleRow>("SELECT * FROM alert_rules WHERE comparison_id = $1 AND owner_id = $2 ORDER BY created_at, id", [
        comparisonId,
        ownerId,
      ]),
    countFor: async (comparisonId: string): Promise<number> =>
      (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM alert_rules WHERE comparison_id = $1", [comparisonId]))?.n ?? 0,
    remove: async (id: string, ownerId: string): Promise<boolean> =>
      (await db.run("DELETE FROM alert_rules WHERE id = $1 AND owner_id = $2", [id, ownerId])) > 0,
    async logDelivery(d: {
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
    }): Promise<void> {
      await db.run(
        `INSERT INTO alert_deliveries (id, alert_id, comparison_id, owner_id, run_id, status, attempts, last_error, sent_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [d.id, d.alertId, d.comparisonId, d.ownerId, d.runId, d.status, d.attempts, d.lastError, d.sentAt, d.at],
      );
    },
    // The addresses a members rule reaches: members of the workspace who receive alerts, with an enabled account.
    recipients: async (workspaceId: string): Promise<string[]> =>
      (
        await db.all<{ email: string }>(
          `SELECT u.email FROM workspace_members m JOIN users u ON u.id = m.user_id
            WHERE m.workspace_id = $1 AND m.alerts = TRUE AND u.disabled = FALSE ORDER BY m.joined_at, u.id`,
          [workspaceId],
        )
      ).map((r) => r.email),
    deliveries: async (comparisonId: string, ownerId: string, limit = 200): Promise<DeliveryView[]> =>
      (
        await db.all<DeliveryRow>(
          `SELECT alert_id, run_id, status, attempts, last_error, sent_at FROM alert_deliveries
            WHERE comparison_id = $1 AND owner_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
          [comparisonId, ownerId, limit],
        )
      ).map(toDeliveryView),
  };
}

export type AlertsRepository = ReturnType<typeof alertsRepository>;
