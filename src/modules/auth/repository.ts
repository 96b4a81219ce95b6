import type { Db } from "#server/db/connection";
import type { PublicUser, Role } from "./model";

export interface UserRow {
  id: string;
  email: string;
  username: string | null;
  password_hash: string;
  role: Role;
  disabled: number;
  token_version: number;
  created_at: string;
}

export interface RefreshRow {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export const toPublicUser = (u: UserRow): PublicUser => ({ id: u.id, email: u.email, username: u.username, role: u.role });

export function authRepository(db: Db) {
  const q = {
    userByEmail: db.query<UserRow, [string]>("SELECT * FROM users WHERE email = ?"),
    userById: db.query<UserRow, [string]>("SELECT * FROM users WHERE id = ?"),
    countUsers: db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM users"),
    insertUser: db.query<null, [string, string, string | null, string, Role]>(
      "INSERT INTO users (id, email, username, password_hash, role) VALUES (?, ?, ?, ?, ?)",
    ),
    refreshByHash: db.query<RefreshRow, [string]>("SELECT * FROM refresh_tokens WHERE token_hash = ?"),
    insertRefresh: db.query<null, [string, string, string, string, string]>(
      "INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at) VALUES (?, ?, ?, ?, ?)",
    ),
    markUsed: db.query<null, [string, string]>(
      "UPDATE refresh_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL",
    ),
    revokeFamily: db.query<null, [string, string]>("UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL"),
    revokeUser: db.query<null, [string, string]>("UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL"),
    sessionEnded: db.query<{ ended: number }, [string]>(
      "SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NOT NULL) AS ended",
    ),
    purgeExpired: db.query<null, [string]>("DELETE FROM refresh_tokens WHERE expires_at < ?"),
    bumpVersion: db.query<null, [string]>("UPDATE users SET token_version = token_version + 1 WHERE id = ?"),
  };
  return {
    findUserByEmail: (email: string) => q.userByEmail.get(email),
    findUserById: (id: string) => q.userById.get(id),
    countUsers: () => q.countUsers.get()?.n ?? 0,
    insertUser: (u: { id: string; email: string; username: string | null; passwordHash: string; role: Role }) =>
      q.insertUser.run(u.id, u.email, u.username, u.passwordHash, u.role),
    findRefresh: (hash: string) => q.refreshByHash.get(hash),
    insertRefresh: (r: { id: string; userId: string; familyId: string; hash: string; expiresAt: string }) =>
      q.insertRefresh.run(r.id, r.userId, r.familyId, r.hash, r.expiresAt),
    /** True only for the one caller that consumed the token; parallel callers see false. */
    markUsed: (id: string, at: string) => q.markUsed.run(at, id).changes === 1,
    revokeFamily: (familyId: string, at: string) => q.revokeFamily.run(at, familyId),
    revokeUserTokens: (userId: string, at: string) => q.revokeUser.run(at, userId),
    /** A sign-in session (refresh-token family) ends for good once any of its tokens is revoked: logout, replay, or ending all sessions. */
    isSessionEnded: (familyId: string) => q.sessionEnded.get(familyId)?.ended === 1,
    purgeExpired: (at: string) => q.purgeExpired.run(at),
    /** Access tokens carry the version they were issued at, so bumping it invalidates them all. */
    bumpTokenVersion: (userId: string) => q.bumpVersion.run(userId),
  };
}

export type AuthRepository = ReturnType<typeof authRepository>;
