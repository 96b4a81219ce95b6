import type { Db } from "#server/db/connection";

export function waitlistRepository(db: Db) {
  const insert = db.query<null, [string, string, string]>(
    "INSERT INTO beta_signups (id, email, source) VALUES (?, ?, ?) ON CONFLICT(email) DO NOTHING",
  );
  const count = db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM beta_signups");
  return {
    /** True when this e-mail is new to the list. */
    add: (id: string, email: string, source: string) => insert.run(id, email, source).changes === 1,
    count: () => count.get()?.n ?? 0,
  };
}
