import { Elysia } from "elysia";
import type { PublicUser } from "#server/modules/auth/model";
import { roleAtLeast, type CurrentWorkspace, type WorkspaceRole } from "#server/modules/workspaces/model";
import { BEARER_SECURITY, bearerToken } from "./auth-guard";
import { notFound, unauthorized } from "./errors";
import { roleRefusal, type WorkspaceResolvers } from "./workspace-guard";

/**
 * `{ memberRole: 'admin' }` on a route under `/api/workspaces/:id/…`: the workspace is the one in
 * the path, not the request's current one. A caller who is not its member gets 404, as for any row
 * that is not theirs (an API key acts only in its own workspace, so another id is not found); a
 * member whose role is short gets 403 saying what it takes. Runs at transform, like the other guards.
 */
export function workspacePathGuard(resolvers: WorkspaceResolvers) {
  return new Elysia({ name: "workspace-path-guard" }).macro({
    memberRole: (needed: WorkspaceRole) => ({
      detail: { security: BEARER_SECURITY },
      transform(context) {
        const token = bearerToken(context.request.headers.get("authorization"));
        if (!token) throw unauthorized();
        const who = resolvers.principalForAccessToken(token);
        if (!who) throw unauthorized();
        const id = (context.params as { id?: string } | undefined)?.id;
        // An empty id would let the resolver fall back to the current workspace.
        const workspace = id ? resolvers.workspaceFor({ userId: who.user.id, keyWorkspaceId: who.keyWorkspaceId }, id) : null;
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
