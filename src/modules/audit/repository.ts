import type { SqlDb } from "#server/db/sql";
import type { AuditEntry, AuditInput } from "./model";

interface AuditRow {
  id: number;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  user_agent: string | null;
  details: string | null;
  created_at: string;
}

function parseDetails(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  actorId: r.actor_id,
  actorEmail: r.actor_email,
  action: r.action,
  target: r.target,
  ip: r.ip,
  userAgent: r.user_agent,
  details: parseDetails(r.details),
  createdAt: r.created_at,
});

export function auditRepository(db: SqlDb) {
  const count = async (where: string, params: unknown[]) =>
    (await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_log ${where}`, params))?.n ?? 0;
  return {
    insert: (e: AuditInput, at: string) =>
      db.run(
        "INSERT INTO audit_log (actor_id, actor_email, action, target, ip, user_agent, details, created_at, workspace_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        [
          e.actorId,
          e.actorEmail,
          e.action,
          e.target ?? null,
          e.ip ?? null,
          e.userAgent ?? null,
          e.details ? JSON.stringify(e.details) : null,
          at,
          e.workspaceId ?? null,
        ],
      ),
    async page(limit: number, offset: number, action?: string): Promise<{ entries: AuditEntry[]; total: number }> {
      const rows = action
        ? await db.all<AuditRow>("SELECT * FROM audit_log WHERE action = $1 ORDER BY id DESC LIMIT $2 OFFSET $3", [action, limit, offset])
        : await db.all<AuditRow>("SELECT * FROM audit_log ORDER BY id DESC LIMIT $1 OFFSET $2", [limit, offset]);
      const total = action ? await count("WHERE action = $1", [action]) : await count("", []);
      return { entries: rows.map(toEntry), total };
    },
    /** One workspace's entries, newest first. */
    async pageIn(workspaceId: string, limit: number, offset: number, action?: string): Promise<{ entries: AuditEntry[]; total: number }> {
      const rows = action
        ? await db.all<AuditRow>("SELECT * FROM audit_log WHERE workspace_id = $1 AND action = $2 ORDER BY id DESC LIMIT $3 OFFSET $4", [
            workspaceId,
            action,
            limit,
            offset,
          ])
        : await db.all<AuditRow>("SELECT * FROM audit_log WHERE workspace_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3", [
            workspaceId,
            limit,
            offset,
          ]);
      const total = action
        ? await count("WHERE workspace_id = $1 AND action = $2", [workspaceId, action])
        : await count("WHERE workspace_id = $1", [workspaceId]);
      return { entries: rows.map(toEntry), total };
    },
    countSince: (action: string, sinceIso: string) => count("WHERE action = $1 AND created_at >= $2", [action, sinceIso]),
  };
}
