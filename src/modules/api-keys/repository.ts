import type { Db } from "#server/db/connection";
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
const SEARCH = "(u.email LIKE ? ESCAPE '\\' OR k.name LIKE ? ESCAPE '\\')";

export function apiKeyRepository(db: Db) {
  const q = {
    insert: db.query<null, [string, string, string, string, ApiKeyScope, string, string, string]>(
      "INSERT INTO api_keys (id, user_id, workspace_id, name, scope, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    // The same conditions as `owner`: a key that no longer works is refused as unknown (401), not by its scope.
    scopeOf: db.query<{ scope: ApiKeyScope }, [string]>(
      `SELECT k.scope FROM api_keys k JOIN users u ON u.id = k.user_id
         JOIN workspace_members m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL AND u.disabled = 0`,
    ),
    countLiveFor: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL"),
    byId: db.query<ApiKeyRow, [string]>("SELECT * FROM api_keys WHERE id = ?"),
    byUserIn: db.query<ApiKeyRow, [string, string]>(
      "SELECT * FROM api_keys WHERE user_id = ? AND workspace_id = ? ORDER BY created_at DESC, rowid DESC",
    ),
    byWorkspace: db.query<OwnedKeyRow, [string]>(`${OWNED} WHERE k.workspace_id = ? ORDER BY k.created_at DESC, k.rowid DESC`),
    // A key works only while it is live, its owner is enabled and still a member of the key's
    // workspace (a removed member's keys stop at once); the owner's role is read fresh each time.
    owner: db.query<KeyOwnerRow, [string]>(
      `SELECT k.id AS key_id, k.workspace_id, k.last_used_at, u.id, u.email, u.username, u.role
         FROM api_keys k JOIN users u ON u.id = k.user_id
         JOIN workspace_members m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL AND u.disabled = 0`,
    ),
    touch: db.query<null, [string, string]>("UPDATE api_keys SET last_used_at = ? WHERE id = ?"),
    revoke: db.query<null, [string, string, string]>(
      "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
    ),
    revokeMemberKeys: db.query<null, [string, string, string]>(
      "UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND revoked_at IS NULL",
    ),
    revokeAllOf: db.query<null, [string, string]>("UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL"),
    ownedPage: db.query<OwnedKeyRow, [string, string, number, number]>(
      `${OWNED} WHERE ${SEARCH} ORDER BY k.created_at DESC, k.rowid DESC LIMIT ? OFFSET ?`,
    ),
    ownedCount: db.query<{ n: number }, [string, string]>(
      `SELECT COUNT(*) AS n FROM api_keys k JOIN users u ON u.id = k.user_id WHERE ${SEARCH}`,
    ),
    ownedById: db.query<OwnedKeyRow, [string]>(`${OWNED} WHERE k.id = ?`),
    countActive: db.query<{ n: number }, []>(
      "SELECT COUNT(*) AS n FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.revoked_at IS NULL AND u.disabled = 0",
    ),
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
    }) => q.insert.run(k.id, k.userId, k.workspaceId, k.name, k.scope, k.prefix, k.hash, k.at),
    scopeOf: (hash: string) => q.scopeOf.get(hash)?.scope ?? null,
    countLiveFor: (userId: string) => q.countLiveFor.get(userId)?.n ?? 0,
    find: (id: string) => {
      const r = q.byId.get(id);
      return r ? { ...toView(r), userId: r.user_id, workspaceId: r.workspace_id } : null;
    },
    /** A user's keys bound to one workspace. */
    listFor: (userId: string, workspaceId: string) => q.byUserIn.all(userId, workspaceId).map(toView),
    /** Every member's keys bound to the workspace, with whose each is. */
    listInWorkspace: (workspaceId: string) => q.byWorkspace.all(workspaceId).map(toOwnedView),
    ownerOf: (hash: string) => q.owner.get(hash),
    touch: (id: string, at: string) => q.touch.run(at, id),
    revoke: (id: string, userId: string, at: string) => q.revoke.run(at, id, userId).changes === 1,
    revokeAllOf: (userId: string, at: string) => q.revokeAllOf.run(at, userId).changes,
    revokeMemberKeys: (workspaceId: string, userId: string, at: string) => q.revokeMemberKeys.run(at, workspaceId, userId).changes,
    countActive: () => q.countActive.get()?.n ?? 0,
    pageOfAll(search: string | undefined, limit: number, offset: number): { keys: OwnedApiKeyView[]; total: number } {
      const term = likeTerm(search ?? "");
      return { keys: q.ownedPage.all(term, term, limit, offset).map(toOwnedView), total: q.ownedCount.get(term, term)?.n ?? 0 };
    },
    findOwned: (id: string) => {
      const r = q.ownedById.get(id);
      return r ? toOwnedView(r) : null;
    },
  };
}
