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

/** The roles an invitation can carry: owners are made by an owner, from members (hand-over or a role change). */
export const INVITED_ROLES = ["admin", "editor", "viewer"] as const;
export const invitedRole = z.enum(INVITED_ROLES, { error: "role must be admin, editor or viewer" });
export type InvitedRole = z.infer<typeof invitedRole>;

/** How long an invitation link stays usable. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** 32 random bytes: 256 bits, 43 characters of base64url. */
export const INVITATION_TOKEN_BYTES = 32;
/** The shape of every token this server hands out; anything else is not looked up at all. */
export const INVITATION_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** Invitations still open per workspace, so a script cannot fill the table. */
export const MAX_OPEN_INVITATIONS = 100;
/** Invitation e-mails one workspace may send per hour: the server's mail must not become anyone's spam relay. */
export const INVITATION_MAILS_PER_HOUR = 30;
/** Team workspaces one account may own. */
export const MAX_OWNED_WORKSPACES = 50;

const workspaceName = z
  .string({ error: "name is required" })
  .trim()
  .min(1, "name is required")
  .max(80, "name must be at most 80 characters");

export const workspaceView = currentWorkspace;
export type WorkspaceView = CurrentWorkspace;

export const createWorkspaceBody = z.object({ name: workspaceName });
export const renameWorkspaceBody = z.object({ name: workspaceName });
export const chooseWorkspaceBody = z.object({
  id: z.string({ error: "id is required" }).min(1, "id is required").max(100, "id is too long"),
});
export const handOverBody = z.object({
  userId: z.string({ error: "userId is required" }).min(1, "userId is required").max(100, "userId is too long"),
});

export const workspaceIdParams = z.object({ id: z.string() });
export const memberParams = z.object({ id: z.string(), userId: z.string() });

export const memberView = z.object({
  userId: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  role: workspaceRole,
  /** Whether the member receives the workspace's alerts and digests. */
  alerts: z.boolean(),
  joinedAt: z.string(),
});
export type MemberView = z.infer<typeof memberView>;

/** A role change (admins and owners), and the member's own opt-in to alerts and digests (only they change it). */
export const updateMemberBody = z
  .object({
    role: workspaceRole.optional(),
    alerts: z.boolean({ error: "alerts must be true or false" }).optional(),
  })
  .refine((b) => b.role !== undefined || b.alerts !== undefined, { message: "Give role or alerts" });
export type UpdateMemberInput = z.infer<typeof updateMemberBody>;

export const createInvitationBody = z.object({
  role: invitedRole,
  /** Also send the link to this address (when the server has SMTP_URL). */
  email: z
    .string({ error: "email must be a string" })
    .trim()
    .max(254, "Email is too long")
    .pipe(z.email("Please enter a valid email address"))
    .optional(),
});
export type CreateInvitationInput = z.infer<typeof createInvitationBody>;

export const createdInvitation = z.object({
  id: z.string(),
  /** The link, with its token: this answer (and the e-mail) is the only place the token ever appears. */
  url: z.string(),
  role: invitedRole,
  expiresAt: z.string(),
  /** Whether the link was also e-mailed (an address was given and SMTP_URL is set). */
  emailed: z.boolean(),
});
export type CreatedInvitation = z.infer<typeof createdInvitation>;

export const INVITATION_STATES = ["pending", "accepted", "expired", "revoked"] as const;

export const invitationView = z.object({
  id: z.string(),
  role: invitedRole,
  email: z.string().nullable(),
  state: z.enum(INVITATION_STATES),
  createdAt: z.string(),
  /** Who made it; null once their account is gone. */
  createdBy: z.object({ id: z.string(), email: z.string() }).nullable(),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
  acceptedBy: z.object({ id: z.string(), email: z.string() }).nullable(),
});
export type InvitationView = z.infer<typeof invitationView>;

export const invitationIdParams = z.object({ id: z.string() });
export const acceptInvitationBody = z.object({
  token: z.string({ error: "token is required" }).min(1, "token is required").max(200, "token is too long"),
});
export const acceptedInvitation = z.object({
  workspace: z.object({ id: z.string(), name: z.string(), role: workspaceRole }),
});
export type AcceptedInvitation = z.infer<typeof acceptedInvitation>;

/** Which team workspace, and with which role, people join the first time they sign in through SSO. */
export const ssoNewcomers = z.object({
  /** A team workspace; null: newcomers get only their personal one. */
  workspaceId: z.string().max(100, "workspaceId is too long").nullable(),
  role: invitedRole,
});
export type SsoNewcomers = z.infer<typeof ssoNewcomers>;
export const ssoNewcomersView = ssoNewcomers.extend({ workspaceName: z.string().nullable() });
export type SsoNewcomersView = z.infer<typeof ssoNewcomersView>;
