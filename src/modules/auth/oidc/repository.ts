import type { Db } from "#server/db/connection";

export function oidcRepository(db: Db) {
  const q = {
    find: db.query<{ user_id: string }, [string, string]>("SELECT user_id FROM oidc_identities WHERE issuer = ? AND subject = ?"),
    insert: db.query<null, [string, string, string, string | null, string]>(
      "INSERT INTO oidc_identities (issuer, subject, user_id, email, created_at, last_login_at) VALUES (?, ?, ?, ?, ?, ?5)",
    ),
    touch: db.query<null, [string, string, string]>("UPDATE oidc_identities SET last_login_at = ? WHERE issuer = ? AND subject = ?"),
  };
  return {
    userIdFor: (issuer: string, subject: string) => q.find.get(issuer, subject)?.user_id ?? null,
    link: (i: { issuer: string; subject: string; userId: string; email: string | null }, at: string) =>
      q.insert.run(i.issuer, i.subject, i.userId, i.email, at),
    touch: (issuer: string, subject: string, at: string) => q.touch.run(at, issuer, subject),
  };
}
