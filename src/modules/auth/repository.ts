import type { SqlDb } from "#server/db/sql";
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

export function authRepository(db: SqlDb) {
  return {
    findUserByEmail: (email: string) => db.one<UserRow>("SELECT * FROM users WHERE email = $1", [email]),
    findUserById: (id: string) => db.one<UserRow>("SELECT * FROM users WHERE id = $1", [id]),
    countUsers: async () => (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM users"))?.n ?? 0,
    insertUser: (u: { id: string; email: string; username: string | null; passwordHash: string; role: Role }) =>
      db.run("INSERT INTO users (id, email, username, password_hash, role) VALUES ($1, $2, $3, $4, $5)", [
        u.id,
        u.email,
        u.username,
        u.passwordHash,
        u.role,
      ]),
    findRefresh: (hash: string) => db.one<RefreshRow>("SELECT * FROM refresh_tokens WHERE token_hash = $1", [hash]),
    insertRefresh: (r: { id: string; userId: string; familyId: string; hash: string; expiresAt: string }) =>
      db.run("INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)", [
        r.id,
        r.userId,
        r.familyId,
        r.hash,
        r.expiresAt,
      ]),
    /** True only for the one caller that consumed the token; parallel callers see false. */
    markUsed: async (id: string, at: string) =>
      (await db.run("UPDATE refresh_tokens SET used_at = $1 WHERE id = $2 AND used_at IS NULL AND revoked_at IS NULL", [at, id])) === 1,
    revokeFamily: (familyId: string, at: string) =>
      db.run("UPDATE refresh_tokens SET revoked_at = $1 WHERE family_id = $2 AND revoked_at IS NULL", [at, familyId]),
    revokeUserTokens: (userId: string, at: string) =>
      db.run("UPDATE refresh_tokens SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL", [at, userId]),
    /** A sign-in session (refresh-token family) ends for good once any of its tokens is revoked: logout, replay, or ending all sessions. */
    isSessionEnded: async (familyId: string) =>
      (await db.one("SELECT 1 AS ended FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NOT NULL LIMIT 1", [familyId])) !== null,
    purgeExpired: (at: string) => db.run("DELETE FROM refresh_tokens WHERE expires_at < $1", [at]),
    /** Access tokens carry the version they were issued at, so bumping it invalidates them all. */
    bumpTokenVersion: (userId: string) => db.run("UPDATE users SET token_version = token_version + 1 WHERE id = $1", [userId]),
  };
}
export type AuthRepository = ReturnType<typeof authRepository>;
