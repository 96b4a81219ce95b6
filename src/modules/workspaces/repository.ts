import type { SqlDb } from "#server/db/sql";
import type { CurrentWorkspace, WorkspaceRole } from "./model";

interface MembershipRow {
  id: string;
  name: string;
  role: WorkspaceRole;
  personal: number;
}

const toCurrent = (r: MembershipRow): CurrentWorkspace => ({ id: r.id, name: r.name, role: r.role, personal: r.personal === 1 });

const MEMBERSHIP = `SELECT w.id, w.name, m.role, (w.personal_user_id IS NOT NULL) AS personal
  FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id`;

/** Membership lookups on the request path: one indexed read each. */
export function workspaceAccessRepository(db: SqlDb) {
  return {
    async membership(workspaceId: string, userId: string): Promise<CurrentWorkspace | null> {
      const r = await db.one<MembershipRow>(`${MEMBERSHIP} WHERE m.workspace_id = $1 AND m.user_id = $2`, [workspaceId, userId]);
      return r ? toCurrent(r) : null;
    },
    lastChosen: async (userId: string) =>
      (await db.one<{ last_workspace_id: string | null }>("SELECT last_workspace_id FROM users WHERE id = $1", [userId]))
        ?.last_workspace_id ?? null,
    memberIds: async (workspaceId: string) =>
      (await db.all<{ user_id: string }>("SELECT user_id FROM workspace_members WHERE workspace_id = $1", [workspaceId])).map(
        (r) => r.user_id,
      ),
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

const MEMBER = `SELECT m.user_id, u.email, u.username, m.role, m.alerts, m.joined_at
  FROM workspace_members m JOIN users u ON u.id = m.user_id`;

/** Workspaces, their members and invitations: everything the workspaces' own routes read and write. */
export function workspacesRepository(db: SqlDb) {
  const count = async (text: string, params: unknown[]) => (await db.one<{ n: number }>(text, params))?.n ?? 0;
  return {
    /** The caller's workspaces: personal first, then by name (ignoring case). */
    listFor: async (userId: string): Promise<CurrentWorkspace[]> =>
      (
        await db.all<MembershipRow>(`${MEMBERSHIP} WHERE m.user_id = $1 ORDER BY (w.personal_user_id IS NULL), LOWER(w.name), w.id`, [
          userId,
        ])
      ).map(toCurrent),
    find: (id: string) => db.one<WorkspaceRow>("SELECT * FROM workspaces WHERE id = $1", [id]),
    countOwnedTeams: (userId: string) =>
      count(
        `SELECT COUNT(*) AS n FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
          WHERE m.user_id = $1 AND m.role = 'owner' AND w.personal_user_id IS NULL`,
        [userId],
      ),
    insert: (id: string, name: string, at: string) =>
      db.run("INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3)", [id, name, at]),
    rename: (id: string, name: string) => db.run("UPDATE workspaces SET name = $1 WHERE id = $2", [name, id]),
    /** Never a personal workspace; its rows go with it (foreign keys cascade). */
    remove: async (id: string) => (await db.run("DELETE FROM workspaces WHERE id = $1 AND personal_user_id IS NULL", [id])) === 1,
    members: (workspaceId: string) =>
      db.all<MemberRow>(
        `${MEMBER} WHERE m.workspace_id = $1
          ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'editor' THEN 2 ELSE 3 END, u.email`,
        [workspaceId],
      ),
    member: (workspaceId: string, userId: string) =>
      db.one<MemberRow>(`${MEMBER} WHERE m.workspace_id = $1 AND m.user_id = $2`, [workspaceId, userId]),
    countOwners: (workspaceId: string) =>
      count("SELECT COUNT(*) AS n FROM workspace_members WHERE workspace_id = $1 AND role = 'owner'", [workspaceId]),
    /** False when they were a member already. */
    addMember: async (workspaceId: string, userId: string, role: WorkspaceRole, at: string) =>
      (await db.run(
        "INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        [workspaceId, userId, role, at],
      )) === 1,
    setRole: (workspaceId: string, userId: string, role: WorkspaceRole) =>
      db.run("UPDATE workspace_members SET role = $1 WHERE workspace_id = $2 AND user_id = $3", [role, workspaceId, userId]),
    setAlerts: (workspaceId: string, userId: string, alerts: boolean) =>
      db.run("UPDATE workspace_members SET alerts = $1 WHERE workspace_id = $2 AND user_id = $3", [alerts, workspaceId, userId]),
    /** Also forgets it as their last chosen workspace. */
    async removeMember(workspaceId: string, userId: string) {
      await db.run("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", [workspaceId, userId]);
      await db.run("UPDATE users SET last_workspace_id = NULL WHERE id = $1 AND last_workspace_id = $2", [userId, workspaceId]);
    },
    choose: (userId: string, workspaceId: string) => db.run("UPDATE users SET last_workspace_id = $1 WHERE id = $2", [workspaceId, userId]),
    insertInvitation: (i: {
      id: string;
      workspaceId: string;
      role: string;
      email: string | null;
      tokenHash: string;
      createdBy: string;
      at: string;
      expiresAt: string;
    }) =>
      db.run(
        `INSERT INTO workspace_invitations (id, workspace_id, role, email, token_hash, created_by, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [i.id, i.workspaceId, i.role, i.email, i.tokenHash, i.createdBy, i.at, i.expiresAt],
      ),
    countOpenInvitations: (workspaceId: string, nowIso: string) =>
      count(
        `SELECT COUNT(*) AS n FROM workspace_invitations
          WHERE workspace_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2`,
        [workspaceId, nowIso],
      ),
    /** Newest first, every state; the latest 500. */
    invitations: (workspaceId: string) =>
      db.all<InvitationListRow>(
        `SELECT i.*, c.email AS creator_email, a.email AS acceptor_email
           FROM workspace_invitations i
           LEFT JOIN users c ON c.id = i.created_by LEFT JOIN users a ON a.id = i.accepted_by
          WHERE i.workspace_id = $1 ORDER BY i.created_at DESC, i.id DESC LIMIT 500`,
        [workspaceId],
      ),
    invitation: (id: string) => db.one<InvitationRow>("SELECT * FROM workspace_invitations WHERE id = $1", [id]),
    invitationByHash: (hash: string) => db.one<InvitationRow>("SELECT * FROM workspace_invitations WHERE token_hash = $1", [hash]),
    /** False when it was used or revoked in the meantime. */
    markAccepted: async (id: string, userId: string, at: string) =>
      (await db.run(
        "UPDATE workspace_invitations SET accepted_at = $1, accepted_by = $2 WHERE id = $3 AND accepted_at IS NULL AND revoked_at IS NULL",
        [at, userId, id],
      )) === 1,
    /** False when it was already used or revoked. */
    revokeInvitation: async (id: string, at: string) =>
      (await db.run("UPDATE workspace_invitations SET revoked_at = $1 WHERE id = $2 AND accepted_at IS NULL AND revoked_at IS NULL", [
        at,
        id,
      ])) === 1,
    async ssoNewcomers(): Promise<{ workspaceId: string | null; role: "admin" | "editor" | "viewer" } | null> {
      const row = await db.one<{ value: string }>("SELECT value FROM settings WHERE key = $1", [SSO_NEWCOMERS_KEY]);
      if (!row) return null;
      try {
        return JSON.parse(row.value) as { workspaceId: string | null; role: "admin" | "editor" | "viewer" };
      } catch {
        return null;
      }
    },
    putSsoNewcomers: (value: { workspaceId: string | null; role: string }, at: string) =>
      db.run(db.dialect.upsert("settings", ["key", "value", "updated_at"], ["key"]), [SSO_NEWCOMERS_KEY, JSON.stringify(value), at]),
  };
}

export type WorkspacesRepository = ReturnType<typeof workspacesRepository>;
