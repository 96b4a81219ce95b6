import type { SqlDb } from "#server/db/sql";

export const SYSTEM_ACTIVE_KEY = "system.active";

export function systemRepository(db: SqlDb) {
  const set = db.dialect.upsert("settings", ["key", "value", "updated_at"], ["key"]);
  return {
    async active(): Promise<{ active: boolean; since: string | null }> {
      const row = await db.one<{ value: string; updated_at: string }>("SELECT value, updated_at FROM settings WHERE key = $1", [
        SYSTEM_ACTIVE_KEY,
      ]);
      const active = row?.value === "1";
      return { active, since: active ? (row?.updated_at ?? null) : null };
    },
    setActive: (active: boolean, at: string) => db.run(set, [SYSTEM_ACTIVE_KEY, active ? "1" : "0", at]),
    /** Agents left in any other state (a crash, a killed worker) are set to stopped; returns the ones changed. */
    markAgentsStopped: (at: string) =>
      db.all<{ id: string; last_activity: string | null }>(
        "UPDATE agents SET status = 'stopped', current_task = NULL, last_activity = $1 WHERE status <> 'stopped' RETURNING id, last_activity",
        [at],
      ),
  };
}
export type SystemRepository = ReturnType<typeof systemRepository>;
