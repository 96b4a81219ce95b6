// The guard of routes whose path names a workspace (`/api/workspaces/:id/…`). The workspaces module
// sits below auth and audit (auth asks it for the current workspace), so it names their types only
// through src/http.
import { Elysia } from "elysia";
import { BEARER_SECURITY, bearerToken, type BearerResolver } from "#server/http/auth-guard";
import { notFound, unauthorized } from "#server/http/errors";
import { roleRefusal, type WorkspaceResolvers } from "#server/http/workspace-guard";
import type { Principal } from "./access";
import { type CurrentWorkspace, roleAtLeast, type WorkspaceRole } from "./model";

/** The signed-in user a bearer token stands for. */
export type SignedInUser = NonNullable<Awaited<ReturnType<WorkspaceResolvers["principalForAccessToken"]>>>["user"];

export type WorkspaceRouteResolvers = WorkspaceResolvers & { userForAccessToken: BearerResolver };

interface Resolved {
  authUser?: SignedInUser;
  authPrincipal?: Principal;
  authWorkspace?: CurrentWorkspace;
}

/** Who a bearer token is, or 401. */
async function principalOf(resolvers: WorkspaceResolvers, request: Request): Promise<{ user: SignedInUser; who: Principal }> {
  const token = bearerToken(request.headers.get("authorization"));
  const found = token ? await resolvers.principalForAccessToken(token) : null;
  if (!found) throw unauthorized();
  return { user: found.user, who: { userId: found.user.id, keyWorkspaceId: found.keyWorkspaceId } };
}

/**
 * `{ signedIn: true }` resolves the caller (`user`, and `who` with the workspace their API key is
 * bound to); `{ member: role }` also the workspace the path's `:id` names, which must be one of the
 * caller's (else 404, as for any row that is not theirs) where their role is at least `role` (else
 * 403). Unlike the workspace guard of data routes, the path names the workspace here, not the
 * X-Workspace-Id header; an API key reaches only its own. Both run at transform, before the input
 * is validated.
 */
export function workspaceRoutesGuard(resolvers: WorkspaceResolvers) {
  return new Elysia({ name: "workspace-routes-guard" }).macro({
    signedIn: (_on: true) => ({
      detail: { security: BEARER_SECURITY },
      async transform(context) {
        const { user, who } = await principalOf(resolvers, context.request);
        const ctx = context as Resolved;
        ctx.authUser = user;
        ctx.authPrincipal = who;
      },
      resolve(context) {
        const ctx = context as Resolved;
        return { user: ctx.authUser!, who: ctx.authPrincipal! };
      },
    }),
    member: (needed: WorkspaceRole) => ({
      detail: { security: BEARER_SECURITY },
      async transform(context) {
        const { user, who } = await principalOf(resolvers, context.request);
        const id = (context.params as { id?: string } | undefined)?.id;
        const workspace = id ? await resolvers.workspaceFor(who, id) : null;
        if (!workspace) throw notFound("Workspace not found");
        if (!roleAtLeast(workspace.role, needed)) throw roleRefusal(workspace.role, needed);
        const ctx = context as Resolved;
        ctx.authUser = user;
        ctx.authPrincipal = who;
        ctx.authWorkspace = workspace;
      },
      resolve(context) {
        const ctx = context as Resolved;
        return { user: ctx.authUser!, who: ctx.authPrincipal!, workspace: ctx.authWorkspace! };
      },
    }),
  });
}
