// Calls to the workspaces API: the switcher's list, members, invitations. Types from the server's schemas.
import type {
  AcceptedInvitation,
  CurrentWorkspace,
  InvitationView,
  InvitedRole,
  MemberView,
  WorkspaceRole,
} from "#server/modules/workspaces/model";
import { api, call } from "#web/lib/api";

export type { AcceptedInvitation, CurrentWorkspace, InvitationView, InvitedRole, MemberView, WorkspaceRole };

const enc = encodeURIComponent;
const one = (id: string) => api.workspaces({ id: enc(id) });

export const listWorkspaces = () => call(api.workspaces.get());
export const createWorkspace = (name: string) => call(api.workspaces.post({ name }));
/** Remembered by the server: pages rendered there, and screenshots fetched with the cookie, follow it. */
export const chooseWorkspace = (id: string) => call(api.me.workspace.put({ id }));

/** Owner only. */
export const renameWorkspace = (id: string, name: string) => call(one(id).patch({ name }));
/** Owner only; never a personal workspace. Deletes everything in it. */
export const deleteWorkspace = (id: string) => call(one(id).delete());
/** Owner only: `userId` (a member) becomes owner; you stay on as admin. */
export const handOverWorkspace = (id: string, userId: string) => call(one(id).owner.post({ userId }));

export const listMembers = (workspaceId: string) => call(one(workspaceId).members.get());
export const changeRole = (workspaceId: string, userId: string, role: WorkspaceRole) =>
  call(
    one(workspaceId)
      .members({ userId: enc(userId) })
      .patch({ role }),
  );
/** Your own opt-in to the workspace's member alerts and its comparisons in your digest (only you change yours). */
export const setMemberAlerts = (workspaceId: string, userId: string, alerts: boolean) =>
  call(
    one(workspaceId)
      .members({ userId: enc(userId) })
      .patch({ alerts }),
  );
/** Your own id: leave the workspace. */
export const removeMember = (workspaceId: string, userId: string) =>
  call(
    one(workspaceId)
      .members({ userId: enc(userId) })
      .delete(),
  );

/** The workspace's audit, newest first (owners and admins). */
export const listWorkspaceAudit = (workspaceId: string, page: number, pageSize = 20) =>
  call(one(workspaceId).audit.get({ query: { page, pageSize } }));

export const listInvitations = (workspaceId: string) => call(one(workspaceId).invitations.get());
export const createInvitation = (workspaceId: string, role: InvitedRole, email?: string) =>
  call(one(workspaceId).invitations.post({ role, email: email || undefined }));
export const revokeInvitation = (id: string) => call(api.invitations({ id: enc(id) }).delete());
export const acceptInvitation = (token: string) => call(api.invitations.accept.post({ token }));
