import { Elysia } from "elysia";
import type { PublicUser } from "#server/modules/auth/model";
import type { Principal } from "#server/modules/workspaces/access";
import { ROLE_GRANTS, roleAtLeast, WORKSPACE_HEADER, type CurrentWorkspace, type WorkspaceRole } from "#server/modules/workspaces/model";
import { BEARER_SECURITY, bearerToken } from "./auth-guard";
import { forbidden, notFound, unauthorized } from "./errors";

/** What the guard needs: who a bearer token is, and their current workspace (both cached: every request asks). */
export interface WorkspaceResolvers {
  principalForAccessToken(token: string): Promise<{ user: PublicUser; keyWorkspaceId: string | null } | null>;
  workspaceFor(who: Principal, requested: string | null): Promise<CurrentWorkspace | null>;
}

/** The refusal of a member whose role is short of what a route needs: it says what they are and what it takes. */
export const roleRefusal = (role: WorkspaceRole, needed: WorkspaceRole) =>
  forbidden(`Your role in this workspace is ${role}; this needs ${needed} (${ROLE_GRANTS[needed]})`);

/** The header in the OpenAPI document of every workspace route. */
const WORKSPACE_PARAMETER = {
  name: "X-Workspace-Id",
  in: "header",
  required: false,
  description: "The workspace to act in; without it, the one you last chose, else your personal one. An API key acts in its own.",
  schema: { type: "string" },
} as const;

/**
 * `{ role: 'viewer' | 'editor' | 'admin' | 'owner' }` on a route resolves `user` and `workspace`
 * (the request's current workspace) or answers 401 (no live credential), 404 (a workspace that is
 * not the caller's) or 403 (a member whose role is short). Like the auth guard, it runs at
 * transform, before the input is validated, and hands its result over on the request's context.
 */
export function workspaceGuard(resolvers: WorkspaceResolvers) {
  return new Elysia({ name: "workspace-guard" }).macro({
    role: (needed: WorkspaceRole) => ({
      detail: { security: BEARER_SECURITY, parameters: [WORKSPACE_PARAMETER] },
      async transform(context) {
        const token = bearerToken(context.request.headers.get("authorization"));
        if (!token) throw unauthorized();
        const who = await resolvers.principalForAccessToken(token);
        if (!who) throw unauthorized();
        const workspace = await resolvers.workspaceFor(
          { userId: who.user.id, keyWorkspaceId: who.keyWorkspaceId },
          context.request.headers.get(WORKSPACE_HEADER),
        );
        if (!workspace) throw notFound("Workspace not found");
        if (!roleAtLeast(workspace.role, needed)) throw roleRefusal(workspace.role, needed);
        const ctx = context as { authUser?: PublicUser; authWorkspace?: CurrentWorkspace };
        ctx.authUser = who.user;
        ctx.authWorkspace = workspace;
      },
      resolve(context) {
        const ctx = context as { authUser?: PublicUser; authWorkspace?: CurrentWorkspace };
        return { user: ctx.authUser!, workspace: ctx.authWorkspace! };
      },
    }),
  });
}
