import { z } from "zod";
import { pageFields, pagedAnswer } from "#server/http/paging";

/** Everything the audit log records; admin actions are named after what changed. */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_up",
  "admin.maintenance_on",
  "admin.maintenance_off",
  "admin.user_disabled",
  "admin.user_enabled",
  "admin.user_promoted",
  "admin.user_demoted",
  "admin.backup_created",
  "admin.backup_failed",
  "admin.backup_downloaded",
  "admin.alert_settings_saved",
  "admin.sso_newcomers_saved",
  "admin.api_key_created",
  "admin.api_key_revoked",
  "api_key.created",
  "api_key.revoked",
  "share.created",
  "share.revoked",
  "secret.set",
  "secret.deleted",
  "system.started",
  "system.stopped",
  "system.restarted",
  "alert.raised",
  "run.started",
  "comparison.deleted",
  "workspace.created",
  "workspace.renamed",
  "workspace.deleted",
  "workspace.handed_over",
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "member.left",
  "invitation.revoked",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who did something and from where; routes build it from the request, services pass it through. */
export interface Actor {
  id: string | null;
  email: string | null;
  ip?: string;
  userAgent?: string;
}

export type SignedInActor = Actor & { id: string; email: string };

export interface AuditInput {
  /** The workspace it happened in; absent for the operator's own entries (settings, users, backups). */
  workspaceId?: string | null;
  actorId: string | null;
  actorEmail: string | null;
  action: AuditAction;
  target?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown> | null;
}

export const auditQuery = z.object({
  ...pageFields,
  action: z.enum(AUDIT_ACTIONS, { error: "Unknown audit action" }).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.number(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = pagedAnswer("entries", auditEntry);
export type AuditPage = z.infer<typeof auditPage>;

/** The actor of a request made by a signed-in user. */
export const actorOf = (user: { id: string; email: string }, ip: string, userAgent: string | undefined | null): SignedInActor => ({
  id: user.id,
  email: user.email,
  ip,
  userAgent: userAgent ?? undefined,
});
