import type { SqlDb } from "#server/db/sql";

export function oidcRepository(db: SqlDb) {
  return {
    userIdFor: async (issuer: string, subject: string) =>
      (await db.one<{ user_id: string }>("SELECT user_id FROM oidc_identities WHERE issuer = $1 AND subject = $2", [issuer, subject]))
        ?.user_id ?? null,
    link: (i: { issuer: string; subject: string; userId: string; email: string | null }, at: string) =>
      db.run("INSERT INTO oidc_identities (issuer, subject, user_id, email, created_at, last_login_at) VALUES ($1, $2, $3, $4, $5, $5)", [
        i.issuer,
        i.subject,
        i.userId,
        i.email,
        at,
      ]),
    touch: (issuer: string, subject: string, at: string) =>
      db.run("UPDATE oidc_identities SET last_login_at = $1 WHERE issuer = $2 AND subject = $3", [at, issuer, subject]),
  };
}
