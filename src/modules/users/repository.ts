import type { Db } from "#server/db/connection";
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

export function usersRepository(db: Db) {
  const q = {
    page: db.query<ManagedRow, [string, string, number, number]>(
      `${SELECT} WHERE u.email LIKE ? ESCAPE '\\' OR IFNULL(u.username, '') LIKE ? ESCAPE '\\' ORDER BY u.created_at, u.id LIMIT ? OFFSET ?`,
    ),
    count: db.query<{ n: number }, [string, string]>(
      "SELECT COUNT(*) AS n FROM users u WHERE u.email LIKE ? ESCAPE '\\' OR IFNULL(u.username, '') LIKE ? ESCAPE '\\'",
    ),
    byId: db.query<ManagedRow, [string]>(`${SELECT} WHERE u.id = ?`),
    byEmail: db.query<ManagedRow, [string]>(`${SELECT} WHERE u.email = ?`),
    setDisabled: db.query<null, [number, string]>("UPDATE users SET disabled = ? WHERE id = ?"),
    setRole: db.query<null, [Role, string]>("UPDATE users SET role = ? WHERE id = ?"),
    activeAdminsExcept: db.query<{ n: number }, [string]>(
      "SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND disabled = 0 AND id <> ?",
    ),
    activeAdminEmails: db.query<{ email: string }, []>("SELECT email FROM users WHERE role = 'admin' AND disabled = 0 ORDER BY created_at"),
    counts: db.query<{ users: number; admins: number; disabled: number }, []>(
      "SELECT COUNT(*) AS users, IFNULL(SUM(role = 'admin' AND disabled = 0), 0) AS admins, IFNULL(SUM(disabled), 0) AS disabled FROM users",
    ),
  };
  return {
    page(search: string | undefined, limit: number, offset: number): { users: ManagedUser[]; total: number } {
      const term = likeTerm(search ?? "");
      return { users: q.page.all(term, term, limit, offset).map(toManaged), total: q.count.get(term, term)?.n ?? 0 };
    },
    find: (id: string) => {
      const r = q.byId.get(id);
      return r ? toManaged(r) : null;
    },
    findByEmail: (email: string) => {
      const r = q.byEmail.get(email);
      return r ? toManaged(r) : null;
    },
    setDisabled: (id: string, disabled: boolean) => q.setDisabled.run(disabled ? 1 : 0, id),
    setRole: (id: string, role: Role) => q.setRole.run(role, id),
    activeAdminsExcept: (id: string) => q.activeAdminsExcept.get(id)?.n ?? 0,
    counts: () => q.counts.get() ?? { users: 0, admins: 0, disabled: 0 },
    activeAdminEmails: () => q.activeAdminEmails.all().map((r) => r.email),
  };
}
