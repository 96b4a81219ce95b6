import type { WorkspaceRole } from "#web/lib/workspace";

export const ROLE_LABEL: Record<WorkspaceRole, string> = { owner: "Owner", admin: "Admin", editor: "Editor", viewer: "Viewer" };

/** What each role may do, as the members panel explains it. */
export const ROLE_HINT: Record<WorkspaceRole, string> = {
  viewer: "Reads results, changes and exports",
  editor: "Also creates, runs, schedules and deletes comparisons",
  admin: "Also manages members, invitations and API keys",
  owner: "Also renames, deletes and hands over the workspace",
};
