import type { SqlDb } from "#server/db/sql";
import { conflict, notFound } from "#server/http/errors";
import { nowIso } from "#server/lib/ids";
import type { SignedInActor } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import { open, seal } from "./cipher";
import { MAX_SECRETS_PER_SITE, type SecretView } from "./model";
import { secretsRepository } from "./repository";

export interface SecretsDeps {
  db: SqlDb;
  /** The AES-256 key, read on first use (SECRETS_KEY, or DATA_DIR/secrets.key made then). */
  key: () => Uint8Array;
  audit: Pick<AuditService, "recordIn">;
  now?: () => number;
}

const TARGET_NOT_FOUND = "Target not found";

export function secretsService(deps: SecretsDeps) {
  const repo = secretsRepository(deps.db);
  const now = deps.now ?? Date.now;
  let key: Uint8Array | undefined;
  const keyOf = () => (key ??= deps.key());

  const ownedOr404 = async (ownerId: string, targetId: string) => {
    if (!(await repo.owns(ownerId, targetId))) throw notFound(TARGET_NOT_FOUND);
  };

  return {
    /**
     * Sets (or replaces) a secret of a target of the workspace `ownerId`; `actor` is who did it, for
     * the audit log. The value is sealed here and never leaves the server again.
     */
    async put(ownerId: string, actor: SignedInActor, targetId: string, name: string, value: string): Promise<void> {
      await ownedOr404(ownerId, targetId);
      const sealed = seal(keyOf(), targetId, name, value);
      await deps.db.tx(async () => {
        if (!(await repo.exists(targetId, name)) && (await repo.count(targetId)) >= MAX_SECRETS_PER_SITE)
          throw conflict(`A site keeps at most ${MAX_SECRETS_PER_SITE} secrets; delete one first`);
        await repo.upsert(targetId, name, sealed, nowIso(now()));
      });
      // The name only: the audit log is read by admins.
      await deps.audit.recordIn(ownerId, actor, "secret.set", targetId, { name });
    },

    /** The target's secrets by name, never their values. */
    async list(ownerId: string, targetId: string): Promise<SecretView[]> {
      await ownedOr404(ownerId, targetId);
      return (await repo.names(targetId)).map((r) => ({ name: r.name, updatedAt: r.updated_at }));
    },

    async remove(ownerId: string, actor: SignedInActor, targetId: string, name: string): Promise<void> {
      await ownedOr404(ownerId, targetId);
      if (!(await repo.remove(targetId, name))) throw notFound("Secret not found");
      await deps.audit.recordIn(ownerId, actor, "secret.deleted", targetId, { name });
    },

    /**
     * A secret's value for the capture steps of its own site; null when the site has no such
     * secret. Server-side only: no route calls this. SecretUnreadable when it was sealed with
     * another key (SECRETS_KEY changed, or secrets.key lost).
     */
    async reveal(targetId: string, name: string): Promise<string | null> {
      const row = await repo.one(targetId, name);
      return row ? open(keyOf(), targetId, row.name, row) : null;
    },

    /** Every value of the target's secrets, for scrubbing them out of logs and errors of its runs. */
    async valuesOf(targetId: string): Promise<string[]> {
      return (await repo.all(targetId)).map((row) => open(keyOf(), targetId, row.name, row));
    },
  };
}
export type SecretsService = ReturnType<typeof secretsService>;
