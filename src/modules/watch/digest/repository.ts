import type { SqlDb } from "#server/db/sql";

export interface DigestRow {
  user_id: string;
  frequency: "daily" | "weekly";
  timezone: string;
  next_send_at: string | null;
  last_sent_at: string | null;
  last_error: string | null;
}

/** A watched comparison as the digest sums it up. */
export interface WatchedRow {
  id: string;
  /** The workspace that owns the comparison, and its name. */
  owner_id: string;
  workspace: string;
  name: string;
  status: string;
  completed_at: string | null;
  cron: string;
  timezone: string;
  next_run_at: string | null;
  last_run_at: string | null;
  last_skip_at: string | null;
  last_skip_reason: string | null;
  sent: number;
  failed: number;
}

const DUE_COLUMNS = "d.user_id, d.frequency, d.timezone, d.next_send_at, d.last_sent_at, d.last_error, u.email";

export function digestRepository(db: SqlDb) {
  return {
    find: (userId: string) =>
      db.one<DigestRow>(
        "SELECT user_id, frequency, timezone, next_send_at, last_sent_at, last_error FROM watch_digests WHERE user_id = $1",
        [userId],
      ),
    save: (userId: string, frequency: string, timezone: string, nextSendAt: string | null, at: string) =>
      db.run(
        `INSERT INTO watch_digests (user_id, frequency, timezone, next_send_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (user_id) DO UPDATE SET frequency = excluded.frequency, timezone = excluded.timezone,
           next_send_at = excluded.next_send_at, updated_at = excluded.updated_at`,
        [userId, frequency, timezone, nextSendAt, at],
      ),
    remove: (userId: string) => db.run("DELETE FROM watch_digests WHERE user_id = $1", [userId]),
    due: (nowIso: string, limit = 200) =>
      db.all<DigestRow & { email: string }>(
        `SELECT ${DUE_COLUMNS}
           FROM watch_digests d JOIN users u ON u.id = d.user_id
          WHERE d.next_send_at IS NOT NULL AND d.next_send_at <= $1 AND u.disabled = FALSE
          ORDER BY d.next_send_at, d.user_id LIMIT $2`,
        [nowIso, limit],
      ),
    /** The user's digest when it is due at `nowIso` (and the account is not disabled). */
    findDue: (userId: string, nowIso: string) =>
      db.one<DigestRow & { email: string }>(
        `SELECT ${DUE_COLUMNS}
           FROM watch_digests d JOIN users u ON u.id = d.user_id
          WHERE d.user_id = $1 AND d.next_send_at IS NOT NULL AND d.next_send_at <= $2 AND u.disabled = FALSE`,
        [userId, nowIso],
      ),
    earliestNext: async (): Promise<string | null> =>
      (await db.one<{ at: string | null }>("SELECT MIN(next_send_at) AS at FROM watch_digests"))?.at ?? null,
    /** Records a send (or its failure); false when the setting changed meanwhile. */
    settle: async (s: {
      userId: string;
      slot: string;
      nextSendAt: string | null;
      sentAt: string | null;
      error: string | null;
      at: string;
    }): Promise<boolean> =>
      (await db.run(
        `UPDATE watch_digests SET next_send_at = $1, last_sent_at = COALESCE($2, last_sent_at), last_error = $3, updated_at = $4
          WHERE user_id = $5 AND next_send_at = $6`,
        [s.nextSendAt, s.sentAt, s.error, s.at, s.userId, s.slot],
      )) > 0,
    /** The scheduled comparisons of every workspace whose alerts and digest the user receives. */
    // By name without regard to case (ASCII, as SQLite's NOCASE compared them), then id.
    watched: (userId: string, sinceIso: string) =>
      db.all<WatchedRow>(
        `SELECT c.id, c.owner_id, w.name AS workspace, c.name, c.status, c.completed_at, s.cron, s.timezone, s.next_run_at, s.last_run_at, s.last_skip_at, s.last_skip_reason,
                (SELECT COUNT(*) FROM alert_deliveries d WHERE d.comparison_id = c.id AND d.status = 'sent' AND d.created_at >= $2) AS sent,
                (SELECT COUNT(*) FROM alert_deliveries d WHERE d.comparison_id = c.id AND d.status = 'failed' AND d.created_at >= $2) AS failed
           FROM comparison_schedules s JOIN comparisons c ON c.id = s.comparison_id JOIN workspaces w ON w.id = s.owner_id
          WHERE s.owner_id IN (SELECT workspace_id FROM workspace_members WHERE user_id = $1 AND alerts = TRUE)
          ORDER BY LOWER(c.name), c.id`,
        [userId, sinceIso],
      ),
  };
}
