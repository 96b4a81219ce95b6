// Audit actions as people read them: one list for the operator's audit and each workspace's. Typed
// against the server's actions, so a new action without its words fails the type check.
import type { AuditAction } from "#server/modules/audit/model";

export const AUDIT_LABELS: Record<AuditAction, string> = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.sign_up": "Signed up",
  "admin.maintenance_on": "Maintenance on",
  "admin.maintenance_off": "Maintenance off",
  "admin.user_disabled": "Disabled user",
  "admin.user_enabled": "Enabled user",
  "admin.user_promoted": "Promoted user",
  "admin.user_demoted": "Demoted user",
  "admin.backup_created": "Backup created",
  "admin.backup_failed": "Backup failed",
  "admin.backup_downloaded": "Backup downloaded",
  "admin.alert_settings_saved": "Alert settings saved",
  "admin.sso_newcomers_saved": "SSO newcomers set",
  "admin.api_key_created": "API key created",
  "admin.api_key_revoked": "API key revoked",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "share.created": "Share link created",
  "share.revoked": "Share link revoked",
  "secret.set": "Site secret set",
  "secret.deleted": "Site secret deleted",
  "system.started": "System started",
  "system.stopped": "System stopped",
  "system.restarted": "System restarted",
  "alert.raised": "Alert raised",
  "run.started": "Run started",
  "comparison.deleted": "Comparison deleted",
  "workspace.created": "Workspace created",
  "workspace.renamed": "Workspace renamed",
  "workspace.deleted": "Workspace deleted",
  "workspace.handed_over": "Workspace handed over",
  "member.invited": "Member invited",
  "member.joined": "Member joined",
  "member.role_changed": "Role changed",
  "member.removed": "Member removed",
  "member.left": "Member left",
  "invitation.revoked": "Invitation revoked",
};

/** An entry's action in words; an action this build does not know (a newer server's) as it is. */
export const auditLabel = (action: string): string => AUDIT_LABELS[action as AuditAction] ?? action;

/** Refusals, failures and removals in red; the operator's and the team's own moves in violet. */
export const auditTone = (action: string): "red" | "violet" | "gray" =>
  /(_failed|\.raised|\.deleted|\.removed|\.revoked)$/.test(action)
    ? "red"
    : /^(admin|member|workspace|invitation)\./.test(action)
      ? "violet"
      : "gray";

/** Who did it: their address; an SSO newcomer joining is recorded by id alone; the server itself by neither. */
export const auditActor = (e: { actorEmail: string | null; actorId: string | null }): string => e.actorEmail ?? e.actorId ?? "System";
