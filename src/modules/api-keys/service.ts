import type { SqlDb } from "#server/db/sql";
import { conflict, notFound } from "#server/http/errors";
import { newId, nowIso, randomToken, sha256 } from "#server/lib/ids";
import type { PublicUser } from "#server/modules/auth/model";
import type { SignedInActor } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import {
  API_KEY_PREFIX,
  type AllKeysPage,
  type AllKeysQuery,
  type ApiKeyScope,
  type ApiKeyView,
  type CreateApiKeyInput,
  type CreatedApiKey,
  MAX_LIVE_KEYS,
  type OwnedApiKeyView,
  isApiKey,
} from "./model";
import { apiKeyRepository } from "./repository";

/** Writing last-used on every call would turn each read into a write; a minute's precision is enough. */
const TOUCH_EVERY_MS = 60_000;

/** Keys made in the admin console are audited as admin actions; everyone's own keys (Settings) as theirs. */
export type KeyOrigin = "admin" | "personal";

export function apiKeyService(deps: { db: SqlDb; audit: AuditService; now?: () => number }) {
  const repo = apiKeyRepository(deps.db);
  const now = deps.now ?? Date.now;

  return {
    /**
     * A key bound to the workspace it is made in, acting there with its maker's role of the moment
     * (never more). The key is returned once; only its SHA-256 is stored (it is 256 random bits, so
     * no slow hash is needed).
     */
    async create(actor: SignedInActor, workspaceId: string, input: CreateApiKeyInput, origin: KeyOrigin = "admin"): Promise<CreatedApiKey> {
      const key = API_KEY_PREFIX + randomToken(32);
      const id = newId();
      const scope = input.scope ?? "run";
      await deps.db.tx(async () => {
        if ((await repo.countLiveFor(actor.id)) >= MAX_LIVE_KEYS)
          throw conflict(`You already have ${MAX_LIVE_KEYS} API keys; revoke one first`);
        await repo.insert({
          id,
          userId: actor.id,
          workspaceId,
          name: input.name,
          scope,
          prefix: key.slice(0, 10),
          hash: sha256(key),
          at: nowIso(now()),
        });
      });
      await deps.audit.recordIn(workspaceId, actor, origin === "admin" ? "admin.api_key_created" : "api_key.created", id, {
        name: input.name,
        scope,
      });
      const { userId: _, workspaceId: __, ...apiKey } = (await repo.find(id))!;
      return { key, apiKey };
    },

    /** The user's own keys in the workspace. */
    list: (userId: string, workspaceId: string): Promise<ApiKeyView[]> => repo.listFor(userId, workspaceId),

    /** Only its maker revokes a key here, in the key's workspace; anyone else is told it does not exist. */
    async revoke(actor: SignedInActor, workspaceId: string, keyId: string, origin: KeyOrigin = "admin"): Promise<ApiKeyView> {
      const found = await repo.find(keyId);
      if (!found || found.userId !== actor.id || found.workspaceId !== workspaceId) throw notFound("API key not found");
      if (await repo.revoke(keyId, actor.id, nowIso(now())))
        await deps.audit.recordIn(workspaceId, actor, origin === "admin" ? "admin.api_key_revoked" : "api_key.revoked", keyId, {
          name: found.name,
        });
      const { userId: _, workspaceId: __, ...view } = (await repo.find(keyId))!;
      return view;
    },

    /** Every member's keys in the workspace, for its admins and owners. */
    listInWorkspace: (workspaceId: string): Promise<OwnedApiKeyView[]> => repo.listInWorkspace(workspaceId),

    /** A workspace admin ends any member's key of that workspace; a key of another workspace does not exist here. */
    async revokeInWorkspace(actor: SignedInActor, workspaceId: string, keyId: string): Promise<OwnedApiKeyView> {
      const found = await repo.findOwned(keyId);
      if (!found || found.workspaceId !== workspaceId) throw notFound("API key not found");
      if (await repo.revoke(keyId, found.ownerId, nowIso(now())))
        await deps.audit.recordIn(workspaceId, actor, "api_key.revoked", keyId, { name: found.name, owner: found.ownerEmail });
      return (await repo.findOwned(keyId))!;
    },

    /**
     * Ends a member's keys of a workspace when they leave or are removed. Their keys already stop
     * working the moment the membership ends; revoking them keeps them dead if the person rejoins.
     */
    revokeMemberKeys: (workspaceId: string, userId: string) => repo.revokeMemberKeys(workspaceId, userId, nowIso(now())),

    /** Every user's keys with their workspaces, newest first, for the admin console (an admin route; never the keys themselves). */
    async listAll(query: AllKeysQuery): Promise<AllKeysPage> {
      const { keys, total } = await repo.pageOfAll(query.q, query.pageSize, (query.page - 1) * query.pageSize);
      return { keys, total, page: query.page, pageSize: query.pageSize };
    },

    /**
     * An admin ends anyone's key (a leaked CI secret, a departed colleague's script). Audited as an
     * admin action naming the owner; revoking a key that is already revoked changes and records nothing.
     */
    async revokeAny(actor: SignedInActor, keyId: string): Promise<OwnedApiKeyView> {
      const found = await repo.findOwned(keyId);
      if (!found) throw notFound("API key not found");
      if (await repo.revoke(keyId, found.ownerId, nowIso(now())))
        await deps.audit.recordIn(found.workspaceId, actor, "admin.api_key_revoked", keyId, { name: found.name, owner: found.ownerEmail });
      return (await repo.findOwned(keyId))!;
    },

    /** Ends every key of a user (on disable). */
    revokeAllOf: (userId: string) => repo.revokeAllOf(userId, nowIso(now())),

    countActive: repo.countActive,

    /** The scope of a working key, or null when it is unknown, revoked, its owner disabled or no longer a member of its workspace (the guard then answers 401). */
    scopeOf: async (token: string): Promise<ApiKeyScope | null> => (isApiKey(token) ? repo.scopeOf(sha256(token)) : null),

    /** The owner of a live key and the workspace it is bound to, or null; plugged into the bearer resolver ahead of JWT verification. */
    async principalForKey(token: string): Promise<{ user: PublicUser; keyWorkspaceId: string } | null> {
      if (!isApiKey(token)) return null;
      const row = await repo.ownerOf(sha256(token));
      if (!row) return null;
      const t = now();
      if (!row.last_used_at || Date.parse(row.last_used_at) < t - TOUCH_EVERY_MS) await repo.touch(row.key_id, nowIso(t));
      return { user: { id: row.id, email: row.email, username: row.username, role: row.role }, keyWorkspaceId: row.workspace_id };
    },
  };
}

export type ApiKeyService = ReturnType<typeof apiKeyService>;
