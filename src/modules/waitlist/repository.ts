import type { SqlDb } from "#server/db/sql";

export function waitlistRepository(db: SqlDb) {
  return {
    /** True when this e-mail is new to the list. */
    add: async (id: string, email: string, source: string) =>
      (await db.run("INSERT INTO beta_signups (id, email, source) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING", [
        id,
        email,
        source,
      ])) === 1,
    count: async () => (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM beta_signups"))?.n ?? 0,
  };
}
