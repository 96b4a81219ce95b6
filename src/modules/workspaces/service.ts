// Workspaces as their members manage them: make, rename, delete and hand over a workspace, choose
// the current one, change roles, remove and leave, invite by link or e-mail and accept. The rule of
// which workspace a request acts in lives in ./access; the route guard checks the caller's role, and
// this service checks what depends on the other member too (an admin cannot touch an owner).
import type { SqlDb } from "#server/db/sql";
import { HttpError, badRequest, conflict, forbidden, notFound } from "#server/http/errors";
import { RateLimiter } from "#server/http/rate-limit";
import { newId, nowIso, randomToken, sha256 } from "#server/lib/ids";
import {
  type AcceptedInvitation,
  type CreateInvitationInput,
  type CreatedInvitation,
  type CurrentWorkspace,
  INVITATION_MAILS_PER_HOUR,
  INVITATION_TOKEN_BYTES,
  INVITATION_TOKEN_SHAPE,
  INVITATION_TTL_MS,
  type InvitationView,
  MAX_OPEN_INVITATIONS,
  MAX_OWNED_WORKSPACES,
  type MemberView,
  type SsoNewcomers,
  type SsoNewcomersView,
  type UpdateMemberInput,
  type WorkspaceRole,
  roleAtLeast,
} from "./model";
import type { Principal } from "./access";
import { type InvitationListRow, type MemberRow, workspacesRepository } from "./repository";
import { roleRefusal } from "#server/http/workspace-guard";

/** What sends invitation e-mails (the admin module's SMTP mailer when SMTP_URL is set). */
export interface InvitationMailer {
  send(message: { to: string[]; subject: string; text: string }): Promise<void>;
}

/** Who did something and from where, as the audit module records it (named here: workspaces sits below audit). */
export interface WorkspaceActor {
  id: string;
  email: string;
  ip?: string;
  userAgent?: string;
}

/** The audit actions this module records (all in the audit module's list). */
export type WorkspaceAuditAction =
  | "workspace.created"
  | "workspace.renamed"
  | "workspace.deleted"
  | "workspace.handed_over"
  | "member.invited"
  | "member.joined"
  | "member.role_changed"
  | "member.removed"
  | "member.left"
  | "invitation.revoked"
  | "admin.sso_newcomers_saved";

type AuditActor = { id: string | null; email: string | null; ip?: string; userAgent?: string };

export interface WorkspacesDeps {
  db: SqlDb;
  audit: {
    recordIn(
      workspaceId: string,
      actor: AuditActor,
      action: WorkspaceAuditAction,
      target?: string | null,
      details?: Record<string, unknown>,
    ): Promise<void>;
    recordBy(actor: AuditActor, action: WorkspaceAuditAction, target?: string | null, details?: Record<string, unknown>): Promise<void>;
  };
  mailer?: InvitationMailer;
  /**
   * Told in the removal's transaction when a member leaves or is removed: their API keys for the
   * workspace are revoked (they already stop with the membership; revoked, they stay dead should
   * the person join again).
   */
  onMemberRemoved?: (workspaceId: string, userId: string) => Promise<unknown>;
  /**
   * Removes a workspace's comparisons through their own module before the workspace goes (their
   * screenshots and filmstrips are files, which no foreign key reaches). Refuses (409) while a run
   * is going.
   */
  removeComparisons?: (workspaceId: string) => Promise<void>;
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
}

export const INVITATION_GONE = {
  used: "This invitation was already used",
  expired: "This invitation has expired; ask for a new one",
  revoked: "This invitation was revoked",
} as const;
const MEMBER_NOT_FOUND = "Member not found";
const INVITATION_NOT_FOUND = "Invitation not found";
const LAST_OWNER = "A workspace needs an owner: make another member owner first (or delete the workspace)";

/** Only the SHA-256 of a token is kept: 256 random bits leave nothing to guess, so a slow hash would add nothing. */
export const hashInvitationToken = (token: string) => sha256(token);

const toMember = (r: MemberRow): MemberView => ({
  userId: r.user_id,
  email: r.email,
  username: r.username,
  role: r.role,
  alerts: r.alerts === 1,
  joinedAt: r.joined_at,
});

function stateOf(r: InvitationListRow, at: number): InvitationView["state"] {
  if (r.accepted_at) return "accepted";
  if (r.revoked_at) return "revoked";
  return Date.parse(r.expires_at) <= at ? "expired" : "pending";
}

export function workspacesService(deps: WorkspacesDeps) {
  const repo = workspacesRepository(deps.db);
  const now = deps.now ?? Date.now;
  const mailBudget = new RateLimiter(INVITATION_MAILS_PER_HOUR, 60 * 60 * 1000, now);

  const view = async (id: string, userId: string): Promise<CurrentWorkspace> => {
    const w = (await repo.find(id))!;
    const m = (await repo.member(id, userId))!;
    return { id: w.id, name: w.name, role: m.role, personal: w.personal_user_id !== null };
  };

  /** The member an id names in this workspace, or 404. */
  const memberOf = async (workspaceId: string, userId: string) => {
    const m = await repo.member(workspaceId, userId);
    if (!m) throw notFound(MEMBER_NOT_FOUND);
    return m;
  };

  function mailInvitation(to: string, workspaceName: string, inviter: string, role: string, url: string, expiresAt: string) {
    return deps.mailer!.send({
      to: [to],
      subject: `${inviter} invited you to ${workspaceName} on Design Intel`,
      text: [
        `${inviter} invited you to join the workspace "${workspaceName}" on Design Intel as ${role}.`,
        "",
        `Accept the invitation: ${url}`,
        "",
        `The link works once and until ${expiresAt}. If you did not expect it, ignore this e-mail.`,
      ].join("\n"),
    });
  }

  /** Which team workspace, with which role, first-time SSO users join (the super-admin console sets it). */
  async function ssoNewcomers(): Promise<SsoNewcomersView> {
    const s = await repo.ssoNewcomers();
    const w = s?.workspaceId ? await repo.find(s.workspaceId) : null;
    if (!s || !w) return { workspaceId: null, role: s?.role ?? "viewer", workspaceName: null };
    return { workspaceId: w.id, role: s.role, workspaceName: w.name };
  }

  return {
    /** Every workspace the caller belongs to; an API key sees only its own. */
    async list(who: Principal): Promise<CurrentWorkspace[]> {
      const all = await repo.listFor(who.userId);
      return who.keyWorkspaceId ? all.filter((w) => w.id === who.keyWorkspaceId) : all;
    },

    /** A team workspace with the caller as its owner. */
    async create(actor: WorkspaceActor, name: string): Promise<CurrentWorkspace> {
      const id = newId();
      await deps.db.tx(async () => {
        if ((await repo.countOwnedTeams(actor.id)) >= MAX_OWNED_WORKSPACES)
          throw conflict(`An account owns up to ${MAX_OWNED_WORKSPACES} team workspaces`);
        const at = nowIso(now());
        await repo.insert(id, name, at);
        await repo.addMember(id, actor.id, "owner", at);
      });
      await deps.audit.recordIn(id, actor, "workspace.created", id, { name });
      return view(id, actor.id);
    },

    /** Owners only (the route checks); the personal workspace may be renamed too. */
    async rename(actor: WorkspaceActor, ws: CurrentWorkspace, name: string): Promise<CurrentWorkspace> {
      await repo.rename(ws.id, name);
      await deps.audit.recordIn(ws.id, actor, "workspace.renamed", ws.id, { from: ws.name, to: name });
      return view(ws.id, actor.id);
    },

    /**
     * Deletes a team workspace and everything in it. Its comparisons go first through their own
     * module (files included); the rest (members, invitations, keys, schedules, its audit) by
     * cascade. The deletion itself is kept in the operator's audit, the workspace's being gone.
     */
    async remove(actor: WorkspaceActor, ws: CurrentWorkspace): Promise<void> {
      if (ws.personal) throw badRequest("A personal workspace cannot be deleted");
      await deps.removeComparisons?.(ws.id);
      if (!(await repo.remove(ws.id))) throw notFound("Workspace not found");
      await deps.audit.recordBy(actor, "workspace.deleted", ws.id, { name: ws.name });
    },

    /** The new owner must already be a member; the old owner stays on as admin. */
    async handOver(actor: WorkspaceActor, ws: CurrentWorkspace, userId: string): Promise<CurrentWorkspace> {
      if (ws.personal) throw badRequest("A personal workspace cannot be handed over");
      if (userId === actor.id) throw badRequest("You already own this workspace");
      await deps.db.tx(async () => {
        await memberOf(ws.id, userId);
        await repo.setRole(ws.id, userId, "owner");
        await repo.setRole(ws.id, actor.id, "admin");
      });
      await deps.audit.recordIn(ws.id, actor, "workspace.handed_over", userId, { from: actor.id, to: userId });
      return view(ws.id, actor.id);
    },

    /** Remembers the caller's choice, the current workspace of their requests that name none (and of <img> fetches). */
    async choose(userId: string, workspaceId: string): Promise<CurrentWorkspace> {
      if (!(await repo.member(workspaceId, userId))) throw notFound("Workspace not found");
      await repo.choose(userId, workspaceId);
      return view(workspaceId, userId);
    },

    members: async (ws: CurrentWorkspace): Promise<MemberView[]> => (await repo.members(ws.id)).map(toMember),

    /**
     * A role change needs admin; making or unmaking an owner needs an owner; the last owner stays
     * one. `alerts` is the member's own choice: only they change it.
     */
    async updateMember(actor: WorkspaceActor, ws: CurrentWorkspace, userId: string, input: UpdateMemberInput): Promise<MemberView> {
      const target = await memberOf(ws.id, userId);
      if (input.alerts !== undefined && userId !== actor.id)
        throw forbidden("Only the member themselves can choose whether they get alerts");
      const role = input.role;
      // Rights are checked whenever a role is given, even the one the member has: a viewer's no-op is still refused.
      if (role !== undefined) {
        if (!roleAtLeast(ws.role, "admin")) throw roleRefusal(ws.role, "admin");
        if ((target.role === "owner" || role === "owner") && ws.role !== "owner")
          throw forbidden(target.role === "owner" ? "An admin cannot demote an owner" : "Only an owner can make owners");
      }
      const changesRole = role !== undefined && role !== target.role;
      await deps.db.tx(async () => {
        if (changesRole) {
          if (target.role === "owner" && (await repo.countOwners(ws.id)) <= 1) throw conflict(LAST_OWNER);
          await repo.setRole(ws.id, userId, role!);
        }
        if (input.alerts !== undefined) await repo.setAlerts(ws.id, userId, input.alerts);
      });
      if (changesRole)
        await deps.audit.recordIn(ws.id, actor, "member.role_changed", userId, { email: target.email, from: target.role, to: role });
      return toMember((await repo.member(ws.id, userId))!);
    },

    /** Your own id: you leave. Anyone else's: admins remove members, owners remove anyone; never the last owner. */
    async removeMember(actor: WorkspaceActor, ws: CurrentWorkspace, userId: string): Promise<void> {
      const self = userId === actor.id;
      const target = await memberOf(ws.id, userId);
      if (!self) {
        if (!roleAtLeast(ws.role, "admin")) throw roleRefusal(ws.role, "admin");
        if (target.role === "owner" && ws.role !== "owner") throw forbidden("An admin cannot remove an owner");
      }
      await deps.db.tx(async () => {
        if (target.role === "owner" && (await repo.countOwners(ws.id)) <= 1)
          throw conflict(ws.personal ? "You cannot leave your personal workspace" : LAST_OWNER);
        await repo.removeMember(ws.id, userId);
        await deps.onMemberRemoved?.(ws.id, userId);
      });
      await deps.audit.recordIn(ws.id, actor, self ? "member.left" : "member.removed", userId, { email: target.email, role: target.role });
    },

    /**
     * A single-use link, valid for seven days; only its token's hash is stored. With an address and
     * a mailer the link is also e-mailed (a failed send leaves the link to be copied).
     */
    async invite(actor: WorkspaceActor, ws: CurrentWorkspace, input: CreateInvitationInput, origin: string): Promise<CreatedInvitation> {
      if (ws.personal) throw badRequest("A personal workspace is yours alone: make a team workspace to invite people");
      // Spent before anything is made, so a refused invitation leaves nothing behind.
      if (input.email && deps.mailer) mailBudget.hit(ws.id);
      const at = now();
      const token = randomToken(INVITATION_TOKEN_BYTES);
      const id = newId();
      const expiresAt = nowIso(at + INVITATION_TTL_MS);
      await deps.db.tx(async () => {
        if ((await repo.countOpenInvitations(ws.id, nowIso(at))) >= MAX_OPEN_INVITATIONS)
          throw conflict(`A workspace keeps up to ${MAX_OPEN_INVITATIONS} open invitations; revoke some first`);
        await repo.insertInvitation({
          id,
          workspaceId: ws.id,
          role: input.role,
          email: input.email ?? null,
          tokenHash: hashInvitationToken(token),
          createdBy: actor.id,
          at: nowIso(at),
          expiresAt,
        });
      });
      await deps.audit.recordIn(ws.id, actor, "member.invited", id, { role: input.role, email: input.email ?? null });
      const url = `${origin}/invite/${token}`;
      let emailed = false;
      if (input.email && deps.mailer) {
        try {
          await mailInvitation(input.email, ws.name, actor.email, input.role, url, expiresAt);
          emailed = true;
        } catch (e) {
          deps.log?.("invitation e-mail failed", e);
        }
      }
      return { id, url, role: input.role, expiresAt, emailed };
    },

    async invitations(ws: CurrentWorkspace): Promise<InvitationView[]> {
      const at = now();
      return (await repo.invitations(ws.id)).map((r) => ({
        id: r.id,
        role: r.role,
        email: r.email,
        state: stateOf(r, at),
        createdAt: r.created_at,
        createdBy: r.created_by && r.creator_email ? { id: r.created_by, email: r.creator_email } : null,
        expiresAt: r.expires_at,
        acceptedAt: r.accepted_at,
        acceptedBy: r.accepted_by && r.acceptor_email ? { id: r.accepted_by, email: r.acceptor_email } : null,
      }));
    },

    /**
     * Admins and owners of the invitation's workspace revoke it; anyone else gets 404, as for any
     * row that is not theirs. Revoking twice changes nothing; a used invitation cannot be revoked.
     */
    async revokeInvitation(actor: WorkspaceActor, who: Principal, invitationId: string): Promise<void> {
      const inv = await repo.invitation(invitationId);
      const ws =
        inv && (who.keyWorkspaceId === null || who.keyWorkspaceId === inv.workspace_id)
          ? await repo.member(inv.workspace_id, actor.id)
          : null;
      if (!inv || !ws) throw notFound(INVITATION_NOT_FOUND);
      if (!roleAtLeast(ws.role, "admin")) throw roleRefusal(ws.role, "admin");
      if (inv.accepted_at) throw conflict("This invitation was already accepted; remove the member instead");
      if (await repo.revokeInvitation(invitationId, nowIso(now())))
        await deps.audit.recordIn(inv.workspace_id, actor, "invitation.revoked", invitationId, { role: inv.role, email: inv.email });
    },

    /** The signed-in caller joins with the invitation's role. Used, expired and revoked invitations are 410. */
    async accept(actor: WorkspaceActor, token: string): Promise<AcceptedInvitation> {
      const inv = INVITATION_TOKEN_SHAPE.test(token) ? await repo.invitationByHash(hashInvitationToken(token)) : null;
      if (!inv) throw notFound(INVITATION_NOT_FOUND);
      const at = now();
      await deps.db.tx(async () => {
        if (inv.accepted_at) throw new HttpError(410, INVITATION_GONE.used);
        if (inv.revoked_at) throw new HttpError(410, INVITATION_GONE.revoked);
        if (Date.parse(inv.expires_at) <= at) throw new HttpError(410, INVITATION_GONE.expired);
        if (await repo.member(inv.workspace_id, actor.id)) throw conflict("You are already a member of this workspace");
        if (!(await repo.markAccepted(inv.id, actor.id, nowIso(at)))) throw new HttpError(410, INVITATION_GONE.used);
        await repo.addMember(inv.workspace_id, actor.id, inv.role, nowIso(at));
      });
      await deps.audit.recordIn(inv.workspace_id, actor, "member.joined", actor.id, { role: inv.role, invitationId: inv.id });
      const w = await view(inv.workspace_id, actor.id);
      return { workspace: { id: w.id, name: w.name, role: w.role } };
    },

    ssoNewcomers,

    async setSsoNewcomers(actor: WorkspaceActor, input: SsoNewcomers): Promise<SsoNewcomersView> {
      if (input.workspaceId !== null) {
        const w = await repo.find(input.workspaceId);
        if (!w) throw notFound("Workspace not found");
        if (w.personal_user_id !== null) throw badRequest("Newcomers can join a team workspace, not someone's personal one");
      }
      await repo.putSsoNewcomers(input, nowIso(now()));
      await deps.audit.recordBy(actor, "admin.sso_newcomers_saved", input.workspaceId, { role: input.role });
      return ssoNewcomers();
    },

    /**
     * Adds someone signing in through SSO for the first time to the chosen workspace. Runs inside
     * the provisioning transaction; a workspace deleted since is skipped.
     */
    async joinAsNewcomer(userId: string): Promise<void> {
      const s = await repo.ssoNewcomers();
      if (!s?.workspaceId || !(await repo.find(s.workspaceId))) return;
      if (await repo.addMember(s.workspaceId, userId, s.role as WorkspaceRole, nowIso(now())))
        await deps.audit.recordIn(s.workspaceId, { id: userId, email: null }, "member.joined", userId, { role: s.role, via: "sso" });
    },
  };
}

export type WorkspacesService = ReturnType<typeof workspacesService>;
