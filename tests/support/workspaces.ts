// Team workspaces for tests of the routes that act in them, written straight into the database
// (the workspaces module's own routes have their tests in tests/api/workspaces.test.ts).
import type { Db } from "#server/db/connection";
import { newId } from "#server/lib/ids";
import { WORKSPACE_HEADER, type WorkspaceRole } from "#server/modules/workspaces/model";

/** A team workspace with `ownerId` as its owner; answers its id. */
export function makeTeam(db: Db, ownerId: string, name = "Team"): string {
  const id = newId();
  db.run("INSERT INTO workspaces (id, name) VALUES (?, ?)", [id, name]);
  addMember(db, id, ownerId, "owner");
  return id;
}

export function addMember(db: Db, workspaceId: string, userId: string, role: WorkspaceRole): void {
  db.run("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, ?)", [workspaceId, userId, role]);
}

export function removeMember(db: Db, workspaceId: string, userId: string): void {
  db.run("DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?", [workspaceId, userId]);
}

/** Headers of a request as `token`, acting in `workspaceId`. */
export const inWorkspace = (token: string, workspaceId: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  [WORKSPACE_HEADER]: workspaceId,
});
