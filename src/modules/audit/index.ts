import { Elysia } from "elysia";
import { type BearerResolver, authGuard } from "#server/http/auth-guard";
import { errors, responds } from "#server/http/contract";
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
