import type { Db } from "#server/db/connection";
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

export function auditRepository(db: Db) {
  const q = {
    insert: db.query<
      null,
      [string | null, string | null, string, string | null, string | null, string | null, string | null, string, string | null]
    >(
      "INSERT INTO audit_log (actor_id, actor_email, action, target, ip, user_agent, details, created_at, workspace_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    page: db.query<AuditRow, [number, number]>("SELECT * FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?"),
    pageByAction: db.query<AuditRow, [string, number, number]>(
      "SELECT * FROM audit_log WHERE action = ? ORDER BY id DESC LIMIT ? OFFSET ?",
    ),
    count: db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM audit_log"),
    pageIn: db.query<AuditRow, [string, number, number]>(
      "SELECT * FROM audit_log WHERE workspace_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
    ),
    pageInByAction: db.query<AuditRow, [string, string, number, number]>(
      "SELECT * FROM audit_log WHERE workspace_id = ? AND action = ? ORDER BY id DESC LIMIT ? OFFSET ?",
    ),
    countIn: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM audit_log WHERE workspace_id = ?"),
    countInByAction: db.query<{ n: number }, [string, string]>("SELECT COUNT(*) AS n FROM audit_log WHERE workspace_id = ? AND action = ?"),
    countByAction: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM audit_log WHERE action = ?"),
    countSince: db.query<{ n: number }, [string, string]>("SELECT COUNT(*) AS n FROM audit_log WHERE action = ? AND created_at >= ?"),
  };
  return {
    insert: (e: AuditInput, at: string) =>
      q.insert.run(
        e.actorId,
        e.actorEmail,
        e.action,
        e.target ?? null,
        e.ip ?? null,
        e.userAgent ?? null,
        e.details ? JSON.stringify(e.details) : null,
        at,
        e.workspaceId ?? null,
      ),
    page(limit: number, offset: number, action?: string): { entries: AuditEntry[]; total: number } {
      const rows = action ? q.pageByAction.all(action, limit, offset) : q.page.all(limit, offset);
      const total = (action ? q.countByAction.get(action) : q.count.get())?.n ?? 0;
      return { entries: rows.map(toEntry), total };
    },
    /** One workspace's entries, newest first. */
    pageIn(workspaceId: string, limit: number, offset: number, action?: string): { entries: AuditEntry[]; total: number } {
      const rows = action ? q.pageInByAction.all(workspaceId, action, limit, offset) : q.pageIn.all(workspaceId, limit, offset);
      const total = (action ? q.countInByAction.get(workspaceId, action) : q.countIn.get(workspaceId))?.n ?? 0;
      return { entries: rows.map(toEntry), total };
    },
    countSince: (action: string, sinceIso: string) => q.countSince.get(action, sinceIso)?.n ?? 0,
  };
}
