import type { SqlDb } from "#server/db/sql";
import { likeTerm } from "#server/db/like";
import type { Role } from "#server/modules/auth/model";
import type { ManagedUser } from "./model";

interface ManagedRow {
  id: string;
  email: string;
  username: string | null;
  role: Role;
  disabled: number;
  created_at: string;
  last_sign_in_at: string | null;
}

const toManaged = (r: ManagedRow): ManagedUser => ({
  id: r.id,
  email: r.email,
  username: r.username,
  role: r.role,
  disabled: r.disabled === 1,
  createdAt: r.created_at,
  lastSignInAt: r.last_sign_in_at,
});

const SELECT = `SELECT u.id, u.email, u.username, u.role, u.disabled, u.created_at,
  (SELECT MAX(a.created_at) FROM audit_log a WHERE a.actor_id = u.id AND a.action = 'auth.sign_in') AS last_sign_in_at
  FROM users u`;

export function usersRepository(db: SqlDb) {
  const { ilike, countWhere } = db.dialect;
  const SEARCH = `u.email ${ilike} $1 ESCAPE '\\' OR COALESCE(u.username, '') ${ilike} $1 ESCAPE '\\'`;
  const one = async (where: string, param: string) => {
    const r = await db.one<ManagedRow>(`${SELECT} WHERE ${where}`, [param]);
    return r ? toManaged(r) : null;
  };
  return {
    async page(search: string | undefined, limit: number, offset: number): Promise<{ users: ManagedUser[]; total: number }> {
      const term = likeTerm(search ?? "");
      const rows = await db.all<ManagedRow>(`${SELECT} WHERE ${SEARCH} ORDER BY u.created_at, u.id LIMIT $2 OFFSET $3`, [
        term,
        limit,
        offset,
      ]);
      const total = (await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM users u WHERE ${SEARCH}`, [term]))?.n ?? 0;
      return { users: rows.map(toManaged), total };
    },
    find: (id: string) => one("u.id = $1", id),
    findByEmail: (email: string) => one("u.email = $1", email),
    setDisabled: (id: string, disabled: boolean) => db.run("UPDATE users SET disabled = $1 WHERE id = $2", [disabled, id]),
    setRole: (id: string, role: Role) => db.run("UPDATE users SET role = $1 WHERE id = $2", [role, id]),
    activeAdminsExcept: async (id: string) =>
      (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND disabled = FALSE AND id <> $1", [id]))?.n ?? 0,
    counts: async () =>
      (await db.one<{ users: number; admins: number; disabled: number }>(
        `SELECT COUNT(*) AS users, ${countWhere("role = 'admin' AND disabled = FALSE")} AS admins, ${countWhere("disabled")} AS disabled FROM users`,
      )) ?? { users: 0, admins: 0, disabled: 0 },
    activeAdminEmails: async () =>
      (await db.all<{ email: string }>("SELECT email FROM users WHERE role = 'admin' AND disabled = FALSE ORDER BY created_at, id")).map(
        (r) => r.email,
      ),
  };
}
