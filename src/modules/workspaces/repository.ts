import type { Db } from "#server/db/connection";
import type { CurrentWorkspace, WorkspaceRole } from "./model";

interface MembershipRow {
  id: string;
  name: string;
  role: WorkspaceRole;
  personal: number;
}

const toCurrent = (r: MembershipRow): CurrentWorkspace => ({ id: r.id, name: r.name, role: r.role, personal: r.personal === 1 });

/** Membership lookups on the request path: one indexed read each. */
export function workspaceAccessRepository(db: Db) {
  const q = {
    membership: db.query<MembershipRow, [string, string]>(
      `SELECT w.id, w.name, m.role, (w.personal_user_id IS NOT NULL) AS personal
         FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.workspace_id = ? AND m.user_id = ?`,
    ),
    lastChosen: db.query<{ last_workspace_id: string | null }, [string]>("SELECT last_workspace_id FROM users WHERE id = ?"),
  };
  return {
    membership(workspaceId: string, userId: string): CurrentWorkspace | null {
      const r = q.membership.get(workspaceId, userId);
      return r ? toCurrent(r) : null;
    },
    lastChosen: (userId: string) => q.lastChosen.get(userId)?.last_workspace_id ?? null,
  };
}

export interface WorkspaceRow {
  id: string;
  name: string;
  personal_user_id: string | null;
  created_at: string;
}

export interface MemberRow {
  user_id: string;
  email: string;
  username: string | null;
  role: WorkspaceRole;
  alerts: number;
  joined_at: string;
}

export interface InvitationRow {
  id: string;
  workspace_id: string;
  role: "admin" | "editor" | "viewer";
  email: string | null;
  token_hash: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}

export interface InvitationListRow extends InvitationRow {
  creator_email: string | null;
  acceptor_email: string | null;
}

/** Where the SSO newcomers' setting is kept in `settings`. */
const SSO_NEWCOMERS_KEY = "workspaces.sso_newcomers";

/** Workspaces, their members and invitations: everything the workspaces' own routes read and write. */
export function workspacesRepository(db: Db) {
  const q = {
    listFor: db.query<MembershipRow, [string]>(
      `SELECT w.id, w.name, m.role, (w.personal_user_id IS NOT NULL) AS personal
         FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = ?
        ORDER BY (w.personal_user_id IS NULL), w.name COLLATE NOCASE, w.id`,
    ),
    find: db.query<WorkspaceRow, [string]>("SELECT * FROM workspaces WHERE id = ?"),
    countOwned: db.query<{ n: number }, [string]>(
      `SELECT COUNT(*) AS n FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = ? AND m.role = 'owner' AND w.personal_user_id IS NULL`,
    ),
    insert: db.query<null, [string, string, string]>("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)"),
    rename: db.query<null, [string, string]>("UPDATE workspaces SET name = ? WHERE id = ?"),
    remove: db.query<null, [string]>("DELETE FROM workspaces WHERE id = ? AND personal_user_id IS NULL"),
    members: db.query<MemberRow, [string]>(
      `SELECT m.user_id, u.email, u.username, m.role, m.alerts, m.joined_at
         FROM workspace_members m JOIN users u ON u.id = m.user_id
        WHERE m.workspace_id = ?
        ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'editor' THEN 2 ELSE 3 END, u.email`,
    ),
    member: db.query<MemberRow, [string, string]>(
      `SELECT m.user_id, u.email, u.username, m.role, m.alerts, m.joined_at
         FROM workspace_members m JOIN users u ON u.id = m.user_id
        WHERE m.workspace_id = ? AND m.user_id = ?`,
    ),
    owners: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM workspace_members WHERE workspace_id = ? AND role = 'owner'"),
    addMember: db.query<null, [string, string, string, string]>(
      "INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
    setRole: db.query<null, [string, string, string]>("UPDATE workspace_members SET role = ? WHERE workspace_id = ? AND user_id = ?"),
    setAlerts: db.query<null, [number, string, string]>("UPDATE workspace_members SET alerts = ? WHERE workspace_id = ? AND user_id = ?"),
    removeMember: db.query<null, [string, string]>("DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?"),
    choose: db.query<null, [string | null, string]>("UPDATE users SET last_workspace_id = ? WHERE id = ?"),
    forgetChoice: db.query<null, [string, string]>("UPDATE users SET last_workspace_id = NULL WHERE id = ? AND last_workspace_id = ?"),
    insertInvitation: db.query<null, [string, string, string, string | null, string, string, string, string]>(
      `INSERT INTO workspace_invitations (id, workspace_id, role, email, token_hash, created_by, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    countOpen: db.query<{ n: number }, [string, string]>(
      `SELECT COUNT(*) AS n FROM workspace_invitations
        WHERE workspace_id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?`,
    ),
    invitations: db.query<InvitationListRow, [string]>(
      `SELECT i.*, c.email AS creator_email, a.email AS acceptor_email
         FROM workspace_invitations i
         LEFT JOIN users c ON c.id = i.created_by LEFT JOIN users a ON a.id = i.accepted_by
        WHERE i.workspace_id = ? ORDER BY i.created_at DESC, i.id DESC LIMIT 500`,
    ),
    invitation: db.query<InvitationRow, [string]>("SELECT * FROM workspace_invitations WHERE id = ?"),
    invitationByHash: db.query<InvitationRow, [string]>("SELECT * FROM workspace_invitations WHERE token_hash = ?"),
    accept: db.query<null, [string, string, string]>(
      "UPDATE workspace_invitations SET accepted_at = ?, accepted_by = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL",
    ),
    revoke: db.query<null, [string, string]>(
      "UPDATE workspace_invitations SET revoked_at = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL",
    ),
    getSetting: db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?"),
    putSetting: db.query<null, [string, string, string]>(
      "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    ),
  };
  return {
    /** The caller's workspaces: personal first, then by name. */
    listFor: (userId: string): CurrentWorkspace[] => q.listFor.all(userId).map(toCurrent),
    find: (id: string) => q.find.get(id),
    countOwnedTeams: (userId: string) => q.countOwned.get(userId)?.n ?? 0,
    insert: (id: string, name: string, at: string) => q.insert.run(id, name, at),
    rename: (id: string, name: string) => q.rename.run(name, id),
    /** Never a personal workspace; its rows go with it (foreign keys cascade). */
    remove: (id: string) => q.remove.run(id).changes === 1,
    members: (workspaceId: string) => q.members.all(workspaceId),
    member: (workspaceId: string, userId: string) => q.member.get(workspaceId, userId),
    countOwners: (workspaceId: string) => q.owners.get(workspaceId)?.n ?? 0,
    /** False when they were a member already. */
    addMember: (workspaceId: string, userId: string, role: WorkspaceRole, at: string) =>
      q.addMember.run(workspaceId, userId, role, at).changes === 1,
    setRole: (workspaceId: string, userId: string, role: WorkspaceRole) => q.setRole.run(role, workspaceId, userId),
    setAlerts: (workspaceId: string, userId: string, alerts: boolean) => q.setAlerts.run(alerts ? 1 : 0, workspaceId, userId),
    /** Also forgets it as their last chosen workspace. */
    removeMember(workspaceId: string, userId: string) {
      q.removeMember.run(workspaceId, userId);
      q.forgetChoice.run(userId, workspaceId);
    },
    choose: (userId: string, workspaceId: string) => q.choose.run(workspaceId, userId),
    insertInvitation: (i: {
      id: string;
      workspaceId: string;
      role: string;
      email: string | null;
      tokenHash: string;
      createdBy: string;
      at: string;
      expiresAt: string;
    }) => q.insertInvitation.run(i.id, i.workspaceId, i.role, i.email, i.tokenHash, i.createdBy, i.at, i.expiresAt),
    countOpenInvitations: (workspaceId: string, nowIso: string) => q.countOpen.get(workspaceId, nowIso)?.n ?? 0,
    /** Newest first, every state; the latest 500. */
    invitations: (workspaceId: string) => q.invitations.all(workspaceId),
    invitation: (id: string) => q.invitation.get(id),
    invitationByHash: (hash: string) => q.invitationByHash.get(hash),
    /** False when it was used or revoked in the meantime. */
    markAccepted: (id: string, userId: string, at: string) => q.accept.run(at, userId, id).changes === 1,
    /** False when it was already used or revoked. */
    revokeInvitation: (id: string, at: string) => q.revoke.run(at, id).changes === 1,
    ssoNewcomers(): { workspaceId: string | null; role: "admin" | "editor" | "viewer" } | null {
      const row = q.getSetting.get(SSO_NEWCOMERS_KEY);
      if (!row) return null;
      try {
        return JSON.parse(row.value) as { workspaceId: string | null; role: "admin" | "editor" | "viewer" };
      } catch {
        return null;
      }
    },
    putSsoNewcomers: (value: { workspaceId: string | null; role: string }, at: string) =>
      q.putSetting.run(SSO_NEWCOMERS_KEY, JSON.stringify(value), at),
  };
}

export type WorkspacesRepository = ReturnType<typeof workspacesRepository>;
