import { Elysia } from "elysia";
import { type BearerResolver, authGuard } from "#server/http/auth-guard";
import { errors, responds } from "#server/http/contract";
import { workspaceIdParams } from "#server/modules/workspaces/model";
import { type WorkspaceRouteResolvers, workspaceRoutesGuard } from "#server/modules/workspaces/public";
import { auditPage, auditQuery } from "./model";
import type { AuditService } from "./service";

export function auditRoutes(audit: AuditService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/admin", tags: ["audit"] })
    .use(authGuard(resolve))
    .get("/audit-logs", ({ query }) => audit.list(query), {
      auth: "admin",
      query: auditQuery,
      response: { 200: responds(auditPage), ...errors(400, 401, 403, 500, 503) },
      detail: { summary: "The audit log, newest first" },
    });
}

/** A workspace's own audit, for its owners and admins. */
export function workspaceAuditRoutes(audit: AuditService, resolvers: WorkspaceRouteResolvers) {
  return new Elysia({ prefix: "/api/workspaces", tags: ["workspaces"] })
    .use(workspaceRoutesGuard(resolvers))
    .get("/:id/audit", ({ workspace, query }) => audit.listIn(workspace.id, query), {
      member: "admin",
      params: workspaceIdParams,
      query: auditQuery,
      response: { 200: responds(auditPage), ...errors(400, 401, 403, 404, 500, 503) },
      detail: {
        summary: "The workspace's audit, newest first: runs started, deletions, members, share links and keys (owners and admins)",
      },
    });
}
