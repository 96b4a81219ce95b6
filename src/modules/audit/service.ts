import type { SqlDb } from "#server/db/sql";
import { nowIso } from "#server/lib/ids";
import type { AuthEvents } from "#server/modules/auth/service";
import type { Actor, AuditAction, AuditInput, AuditPage, AuditQuery } from "./model";
import { auditRepository } from "./repository";

/** User agents are attacker-chosen text; a bounded copy is plenty to tell browsers apart. */
const clip = (s: string | null | undefined, n: number) => (s ? s.slice(0, n) : null);

export function auditService(db: SqlDb, now: () => number = Date.now) {
  const repo = auditRepository(db);

  async function record(e: AuditInput): Promise<void> {
    await repo.insert(
      { ...e, actorEmail: clip(e.actorEmail, 254), ip: clip(e.ip, 64), userAgent: clip(e.userAgent, 300), target: clip(e.target, 300) },
      nowIso(now()),
    );
  }

  /** Shorthand for routes: an admin (or system) action with its actor and request origin. */
  function recordBy(actor: Actor, action: AuditAction, target?: string | null, details?: Record<string, unknown>): Promise<void> {
    return record({ actorId: actor.id, actorEmail: actor.email, action, target, ip: actor.ip, userAgent: actor.userAgent, details });
  }

  /** An action in a workspace, shown in that workspace's audit (to its owners and admins) and in the operator's. */
  function recordIn(
    workspaceId: string,
    actor: Actor,
    action: AuditAction,
    target?: string | null,
    details?: Record<string, unknown>,
  ): Promise<void> {
    return record({
      workspaceId,
      actorId: actor.id,
      actorEmail: actor.email,
      action,
      target,
      ip: actor.ip,
      userAgent: actor.userAgent,
      details,
    });
  }

  /** Sign-in, failed sign-in and sign-up, as the auth service reports them. */
  const authEvents: AuthEvents = {
    onSignIn: (user, meta, method) =>
      record({
        actorId: user.id,
        actorEmail: user.email,
        action: "auth.sign_in",
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { method },
      }),
    onSignInFailed: (email, meta) =>
      record({ actorId: null, actorEmail: email, action: "auth.sign_in_failed", ip: meta.ip, userAgent: meta.userAgent }),
    onSignUp: (user, meta) =>
      record({
        actorId: user.id,
        actorEmail: user.email,
        action: "auth.sign_up",
        target: user.role,
        ip: meta.ip,
        userAgent: meta.userAgent,
      }),
  };

  return {
    record,
    recordBy,
    recordIn,
    authEvents,
    async list(query: AuditQuery): Promise<AuditPage> {
      const { entries, total } = await repo.page(query.pageSize, (query.page - 1) * query.pageSize, query.action);
      return { entries, total, page: query.page, pageSize: query.pageSize };
    },
    /** One workspace's audit, newest first (its owners and admins read it). */
    async listIn(workspaceId: string, query: AuditQuery): Promise<AuditPage> {
      const { entries, total } = await repo.pageIn(workspaceId, query.pageSize, (query.page - 1) * query.pageSize, query.action);
      return { entries, total, page: query.page, pageSize: query.pageSize };
    },
    countSince: (action: AuditAction, sinceMs: number) => repo.countSince(action, nowIso(sinceMs)),
  };
}

export type AuditService = ReturnType<typeof auditService>;
