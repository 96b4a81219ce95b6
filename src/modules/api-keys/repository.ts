import type { SqlDb } from "#server/db/sql";
import { likeTerm } from "#server/db/like";
import type { Role } from "#server/modules/auth/model";
import type { ApiKeyScope, ApiKeyView, OwnedApiKeyView } from "./model";

interface ApiKeyRow {
  id: string;
  user_id: string;
  workspace_id: string;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

type OwnedKeyRow = ApiKeyRow & { owner_email: string; workspace_name: string };

export interface KeyOwnerRow {
  key_id: string;
  workspace_id: string;
  last_used_at: string | null;
  id: string;
  email: string;
  username: string | null;
  role: Role;
}

const toView = (r: ApiKeyRow): ApiKeyView => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

const toOwnedView = (r: OwnedKeyRow): OwnedApiKeyView => ({
  ...toView(r),
  ownerId: r.user_id,
  ownerEmail: r.owner_email,
  workspaceId: r.workspace_id,
  workspaceName: r.workspace_name,
});

/** Keys with their owner's e-mail and their workspace; a search matches the e-mail or the key's name. */
const OWNED = `SELECT k.*, u.email AS owner_email, w.name AS workspace_name
  FROM api_keys k JOIN users u ON u.id = k.user_id JOIN workspaces w ON w.id = k.workspace_id`;
const search = (like: string) => `(u.email ${like} $1 ESCAPE '\\' OR k.name ${like} $1 ESCAPE '\\')`;

// A key works only while it is live, its owner is enabled and still a member of the key's
// workspace (a removed member's keys stop at once).
const WORKING = `api_keys k JOIN users u ON u.id = k.user_id
  JOIN workspace_members m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
  WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND u.disabled = FALSE`;

export function apiKeyRepository(db: SqlDb) {
  const count = async (text: string, params: unknown[]) => (await db.one<{ n: number }>(text, params))?.n ?? 0;
  const SEARCH = search(db.dialect.ilike);
  const findOwned = async (id: string) => {
    const r = await db.one<OwnedKeyRow>(`${OWNED} WHERE k.id = $1`, [id]);
    return r ? toOwnedView(r) : null;
  };
  return {
    insert: (k: {
      id: string;
      userId: string;
      workspaceId: string;
      name: string;
      scope: ApiKeyScope;
      prefix: string;
      hash: string;
      at: string;
    }) =>
      db.run(
        "INSERT INTO api_keys (id, user_id, workspace_id, name, scope, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [k.id, k.userId, k.workspaceId, k.name, k.scope, k.prefix, k.hash, k.at],
      ),
    // The same conditions as `ownerOf`: a key that no longer works is refused as unknown (401), not by its scope.
    scopeOf: async (hash: string) => (await db.one<{ scope: ApiKeyScope }>(`SELECT k.scope FROM ${WORKING}`, [hash]))?.scope ?? null,
    countLiveFor: (userId: string) => count("SELECT COUNT(*) AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL", [userId]),
    find: async (id: string) => {
      const r = await db.one<ApiKeyRow>("SELECT * FROM api_keys WHERE id = $1", [id]);
      return r ? { ...toView(r), userId: r.user_id, workspaceId: r.workspace_id } : null;
    },
    /** A user's keys bound to one workspace (ids are made in time order: the tie-break of one millisecond). */
    listFor: async (userId: string, workspaceId: string) =>
      (
        await db.all<ApiKeyRow>("SELECT * FROM api_keys WHERE user_id = $1 AND workspace_id = $2 ORDER BY created_at DESC, id DESC", [
          userId,
          workspaceId,
        ])
      ).map(toView),
    /** Every member's keys bound to the workspace, with whose each is. */
    listInWorkspace: async (workspaceId: string) =>
      (await db.all<OwnedKeyRow>(`${OWNED} WHERE k.workspace_id = $1 ORDER BY k.created_at DESC, k.id DESC`, [workspaceId])).map(
        toOwnedView,
      ),
    /** The owner's role is read fresh each time. */
    ownerOf: (hash: string) =>
      db.one<KeyOwnerRow>(`SELECT k.id AS key_id, k.workspace_id, k.last_used_at, u.id, u.email, u.username, u.role FROM ${WORKING}`, [
        hash,
      ]),
    touch: (id: string, at: string) => db.run("UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [at, id]),
    revoke: async (id: string, userId: string, at: string) =>
      (await db.run("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL", [at, id, userId])) === 1,
    revokeAllOf: (userId: string, at: string) =>
      db.run("UPDATE api_keys SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL", [at, userId]),
    revokeMemberKeys: (workspaceId: string, userId: string, at: string) =>
      db.run("UPDATE api_keys SET revoked_at = $1 WHERE workspace_id = $2 AND user_id = $3 AND revoked_at IS NULL", [
        at,
        workspaceId,
        userId,
      ]),
    countActive: () =>
      count("SELECT COUNT(*) AS n FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.revoked_at IS NULL AND u.disabled = FALSE", []),
    async pageOfAll(search: string | undefined, limit: number, offset: number): Promise<{ keys: OwnedApiKeyView[]; total: number }> {
      const term = likeTerm(search ?? "");
      const rows = await db.all<OwnedKeyRow>(`${OWNED} WHERE ${SEARCH} ORDER BY k.created_at DESC, k.id DESC LIMIT $2 OFFSET $3`, [
        term,
        limit,
        offset,
      ]);
      const total = await count(`SELECT COUNT(*) AS n FROM api_keys k JOIN users u ON u.id = k.user_id WHERE ${SEARCH}`, [term]);
      return { keys: rows.map(toOwnedView), total };
    },
    findOwned,
  };
}
