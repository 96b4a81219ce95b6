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
    memberIds: db.query<{ user_id: string }, [string]>("SELECT user_id FROM workspace_members WHERE workspace_id = ?"),
  };
  return {
    membership(workspaceId: string, userId: string): CurrentWorkspace | null {
      const r = q.membership.get(workspaceId, userId);
      return r ? toCurrent(r) : null;
    },
    lastChosen: (userId: string) => q.lastChosen.get(userId)?.last_workspace_id ?? null,
    memberIds: (workspaceId: string) => q.memberIds.all(workspaceId).map((r) => r.user_id),
  };
}
