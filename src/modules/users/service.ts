import type { SqlDb } from "#server/db/sql";
import { badRequest, conflict, notFound } from "#server/http/errors";
import type { LiveHub } from "#server/live/hub";
import type { Actor, AuditAction } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import type { ManagedUser, UpdateUserInput, UserListQuery, UserPage } from "./model";
import { usersRepository } from "./repository";

export interface UsersDeps {
  db: SqlDb;
  audit: AuditService;
  /** Ends a user's sessions: refresh tokens revoked, access tokens invalidated. */
  endSessions(userId: string): Promise<void>;
  /** Revokes every API key of a user. */
  revokeApiKeys(userId: string): Promise<unknown>;
  live: Pick<LiveHub, "disconnect">;
}

export function usersService(deps: UsersDeps) {
  const repo = usersRepository(deps.db);

  return {
    /** The account with this e-mail (any case), for operators who know the address, not the id. */
    findByEmail: (email: string): Promise<ManagedUser | null> => repo.findByEmail(email.trim().toLowerCase()),

    async list(query: UserListQuery): Promise<UserPage> {
      const { users, total } = await repo.page(query.q, query.pageSize, (query.page - 1) * query.pageSize);
      return { users, total, page: query.page, pageSize: query.pageSize };
    },

    counts: repo.counts,
    /** Where admin alerts are mailed: every admin who can still sign in. */
    activeAdminEmails: repo.activeAdminEmails,

    /**
     * Disable/enable and promote/demote. Losing access (disable, demote) applies on the user's next
     * request: their sessions, keys (on disable) and sockets end here, and every request re-reads the role.
     */
    async update(actor: Actor, id: string, patch: UpdateUserInput): Promise<ManagedUser> {
      const losesPower = patch.disabled === true || patch.role === "user";
      const changes: AuditAction[] = [];
      await deps.db.tx(async () => {
        const target = await repo.find(id);
        if (!target) throw notFound("User not found");
        if (id === actor.id && losesPower) throw badRequest("You can't disable or demote your own account");
        // Checked inside the write lock, so two admins demoting each other cannot leave nobody in charge.
        if (losesPower && target.role === "admin" && !target.disabled && (await repo.activeAdminsExcept(id)) === 0)
          throw conflict("At least one active admin must remain");
        if (patch.disabled !== undefined && patch.disabled !== target.disabled) {
          await repo.setDisabled(id, patch.disabled);
          changes.push(patch.disabled ? "admin.user_disabled" : "admin.user_enabled");
        }
        if (patch.role !== undefined && patch.role !== target.role) {
          await repo.setRole(id, patch.role);
          changes.push(patch.role === "admin" ? "admin.user_promoted" : "admin.user_demoted");
        }
      });
      const user = (await repo.find(id))!;
      const disabled = changes.includes("admin.user_disabled");
      if (disabled || changes.includes("admin.user_demoted")) {
        await deps.endSessions(id);
        if (disabled) await deps.revokeApiKeys(id);
        deps.live.disconnect({ userId: id }, disabled ? "Account disabled" : "Role changed");
      }
      for (const action of changes) await deps.audit.recordBy(actor, action, user.email, { userId: id });
      return user;
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
