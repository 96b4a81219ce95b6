import { z } from "zod";

/** A member's role in a workspace, weakest first: each can do everything the one before it can. */
export const WORKSPACE_ROLES = ["viewer", "editor", "admin", "owner"] as const;
export const workspaceRole = z.enum(WORKSPACE_ROLES);
export type WorkspaceRole = z.infer<typeof workspaceRole>;

const RANK: Record<WorkspaceRole, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

export const roleAtLeast = (role: WorkspaceRole, needed: WorkspaceRole) => RANK[role] >= RANK[needed];

/** What each role adds, for refusals that say why. */
export const ROLE_GRANTS: Record<WorkspaceRole, string> = {
  viewer: "read results, changes and exports",
  editor: "create, edit, run, schedule and delete comparisons",
  admin: "manage members, invitations and API keys",
  owner: "rename, delete and hand over the workspace",
};

/** The workspace a request acts in, and the caller's role there. */
export const currentWorkspace = z.object({
  id: z.string(),
  name: z.string(),
  role: workspaceRole,
  personal: z.boolean(),
});
export type CurrentWorkspace = z.infer<typeof currentWorkspace>;

/** The header naming the current workspace of a request. */
export const WORKSPACE_HEADER = "x-workspace-id";
