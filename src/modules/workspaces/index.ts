// Workspace routes: the caller's workspaces, the current one, members, invitations and each
// workspace's audit; and the super-admin's choice of where SSO newcomers land. Each route declares
// its params and responses (docs/decisions/0004-route-schemas-and-openapi.md).
import { Elysia } from "elysia";
import { z } from "zod";
import { authGuard } from "#server/http/auth-guard";
import { clientIpPlugin, isHttps } from "#server/http/client-ip";
import { errors, noContentResponse, responds } from "#server/http/contract";
import { type SignedInUser, type WorkspaceRouteResolvers, workspaceRoutesGuard } from "./guard";
import {
  acceptInvitationBody,
  acceptedInvitation,
  chooseWorkspaceBody,
  createdInvitation,
  createInvitationBody,
  createWorkspaceBody,
  handOverBody,
  invitationIdParams,
  invitationView,
  memberParams,
  memberView,
  renameWorkspaceBody,
  ssoNewcomers,
  ssoNewcomersView,
  updateMemberBody,
  workspaceIdParams,
  workspaceView,
} from "./model";
import type { WorkspaceActor, WorkspacesService } from "./service";

/** Where an invitation link points: PUBLIC_URL, else the origin the inviter reached this server at. */
function linkOrigin(request: Request, publicUrl: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  const url = new URL(request.url);
  return `${isHttps(request) ? "https" : "http"}://${url.host}`;
}

/** The actor of a request, as the audit records it. */
const actor = (user: SignedInUser, ip: string, request: Request): WorkspaceActor => ({
  id: user.id,
  email: user.email,
  ip,
  userAgent: request.headers.get("user-agent") ?? undefined,
});

export function workspaceRoutes(workspaces: WorkspacesService, resolvers: WorkspaceRouteResolvers, opts: { publicUrl?: string }) {
  return new Elysia({ prefix: "/api", tags: ["workspaces"] })
    .use(clientIpPlugin())
    .use(workspaceRoutesGuard(resolvers))
    .get("/workspaces", ({ who }) => workspaces.list(who), {
      signedIn: true,
      response: { 200: responds(z.array(workspaceView)), ...errors(401, 500, 503) },
      detail: { summary: "Your workspaces (personal first) and your role in each; an API key sees only its own" },
    })
    .post(
      "/workspaces",
      async ({ user, body, ip, request, set }) => {
        const created = await workspaces.create(actor(user, ip, request), body.name);
        set.status = 201;
        return created;
      },
      {
        signedIn: true,
        body: createWorkspaceBody,
        response: { 201: responds(workspaceView), ...errors(400, 401, 403, 409, 413, 500, 503) },
        detail: { summary: "Make a team workspace; you are its owner" },
      },
    )
    .patch(
      "/workspaces/:id",
      ({ user, workspace, body, ip, request }) => workspaces.rename(actor(user, ip, request), workspace, body.name),
      {
        member: "owner",
        params: workspaceIdParams,
        body: renameWorkspaceBody,
        response: { 200: responds(workspaceView), ...errors(400, 401, 403, 404, 413, 500, 503) },
        detail: { summary: "Rename a workspace (owner)" },
      },
    )
    .delete(
      "/workspaces/:id",
      async ({ user, workspace, ip, request, set }) => {
        await workspaces.remove(actor(user, ip, request), workspace);
        set.status = 204;
      },
      {
        member: "owner",
        params: workspaceIdParams,
        response: errors(400, 401, 403, 404, 409, 500, 503),
        detail: {
          summary: "Delete a team workspace with everything in it (owner; never a personal workspace)",
          ...noContentResponse("Deleted"),
        },
      },
    )
    .post(
      "/workspaces/:id/owner",
      ({ user, workspace, body, ip, request }) => workspaces.handOver(actor(user, ip, request), workspace, body.userId),
      {
        member: "owner",
        params: workspaceIdParams,
        body: handOverBody,
        response: { 200: responds(workspaceView), ...errors(400, 401, 403, 404, 413, 500, 503) },
        detail: { summary: "Hand the workspace over to another member (owner); you stay on as admin" },
      },
    )
    .put("/me/workspace", ({ user, body }) => workspaces.choose(user.id, body.id), {
      signedIn: true,
      body: chooseWorkspaceBody,
      response: { 200: responds(workspaceView), ...errors(400, 401, 403, 404, 413, 500, 503) },
      detail: {
        summary: "Choose your current workspace: requests without X-Workspace-Id (and screenshots by cookie) act in it",
      },
    })
    .get("/workspaces/:id/members", ({ workspace }) => workspaces.members(workspace), {
      member: "viewer",
      params: workspaceIdParams,
      response: { 200: responds(z.array(memberView)), ...errors(401, 404, 500, 503) },
      detail: { summary: "The workspace's members and their roles" },
    })
    .patch(
      "/workspaces/:id/members/:userId",
      ({ user, workspace, params, body, ip, request }) => workspaces.updateMember(actor(user, ip, request), workspace, params.userId, body),
      {
        member: "viewer",
        params: memberParams,
        body: updateMemberBody,
        response: { 200: responds(memberView), ...errors(400, 401, 403, 404, 409, 413, 500, 503) },
        detail: {
          summary: "Change a member's role (admin; owners alone make or unmake owners), or your own opt-in to alerts",
          description:
            "role: admins change editors', viewers' and admins' roles; only an owner makes someone owner or changes an owner's role, and the last owner stays one. alerts: whether you get the workspace's alerts and digests (your own membership only).",
        },
      },
    )
    .delete(
      "/workspaces/:id/members/:userId",
      async ({ user, workspace, params, ip, request, set }) => {
        await workspaces.removeMember(actor(user, ip, request), workspace, params.userId);
        set.status = 204;
      },
      {
        member: "viewer",
        params: memberParams,
        response: errors(401, 403, 404, 409, 500, 503),
        detail: {
          summary: "Remove a member (admin; an owner only by an owner), or leave with your own id (not as the last owner)",
          ...noContentResponse("Removed"),
        },
      },
    )
    .post(
      "/workspaces/:id/invitations",
      async ({ user, workspace, body, ip, request, set }) => {
        const created = await workspaces.invite(actor(user, ip, request), workspace, body, linkOrigin(request, opts.publicUrl));
        set.status = 201;
        // The only answer that carries the token.
        set.headers["cache-control"] = "no-store";
        return created;
      },
      {
        member: "admin",
        params: workspaceIdParams,
        body: createInvitationBody,
        response: { 201: responds(createdInvitation), ...errors(400, 401, 403, 404, 409, 413, 429, 500, 503) },
        detail: { summary: "Invite someone by link (single use, 7 days), also e-mailed when an address is given and SMTP_URL is set" },
      },
    )
    .get("/workspaces/:id/invitations", ({ workspace }) => workspaces.invitations(workspace), {
      member: "admin",
      params: workspaceIdParams,
      response: { 200: responds(z.array(invitationView)), ...errors(401, 403, 404, 500, 503) },
      detail: { summary: "The workspace's invitations, newest first, in every state (never the links themselves)" },
    })
    .delete(
      "/invitations/:id",
      async ({ user, who, params, ip, request, set }) => {
        await workspaces.revokeInvitation(actor(user, ip, request), who, params.id);
        set.status = 204;
      },
      {
        signedIn: true,
        params: invitationIdParams,
        response: errors(401, 403, 404, 409, 500, 503),
        detail: {
          summary: "Revoke an invitation (admins of its workspace): its link answers 410 from now on",
          ...noContentResponse("Revoked"),
        },
      },
    )
    .post("/invitations/accept", ({ user, body, ip, request }) => workspaces.accept(actor(user, ip, request), body.token), {
      signedIn: true,
      body: acceptInvitationBody,
      response: { 200: responds(acceptedInvitation), ...errors(400, 401, 403, 404, 409, 410, 413, 500, 503) },
      detail: {
        summary: "Join a workspace with an invitation's token; used, expired or revoked invitations are 410",
        description: "Through sign-up: create the account (POST /api/auth/signup), then accept with the access token sign-up returns.",
      },
    });
}

/** The super-admin's setting: which team workspace, and with which role, first-time SSO users join. */
export function ssoNewcomersRoutes(workspaces: WorkspacesService, resolve: WorkspaceRouteResolvers["userForAccessToken"]) {
  return new Elysia({ prefix: "/api/admin", tags: ["admin"] })
    .use(clientIpPlugin())
    .use(authGuard(resolve))
    .get("/sso-newcomers", () => workspaces.ssoNewcomers(), {
      auth: "admin",
      response: { 200: responds(ssoNewcomersView), ...errors(401, 403, 500, 503) },
      detail: { summary: "Which team workspace (and role) people join when they first sign in through SSO" },
    })
    .put("/sso-newcomers", ({ user, body, ip, request }) => workspaces.setSsoNewcomers(actor(user, ip, request), body), {
      auth: "admin",
      body: ssoNewcomers,
      response: { 200: responds(ssoNewcomersView), ...errors(400, 401, 403, 404, 413, 500, 503) },
      detail: { summary: "Set which team workspace (null: none) and role SSO newcomers join besides their personal one" },
    });
}
