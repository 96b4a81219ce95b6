import { Elysia } from "elysia";
import { type BearerResolver, authGuard } from "../../http/auth-guard";
import { parseInput } from "../../http/errors";
import { auditQuery } from "./model";
import type { AuditService } from "./service";

export function auditRoutes(audit: AuditService, resolve: BearerResolver) {
  return new Elysia({ prefix: "/api/admin" })
    .use(authGuard(resolve))
    .get("/audit-logs", ({ query }) => audit.list(parseInput(auditQuery, query)), { auth: "admin" });
}
