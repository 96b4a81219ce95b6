import type { Db } from "#server/db/connection";

export const SYSTEM_ACTIVE_KEY = "system.active";

export function systemRepository(db: Db) {
  const q = {
    get: db.query<{ value: string; updated_at: string }, [string]>("SELECT value, updated_at FROM settings WHERE key = ?"),
    set: db.query<null, [string, string, string]>(
      "INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO UPDATE SET value = ?2, updated_at = ?3",
    ),
    markStopped: db.query<{ id: string; last_activity: string | null }, [string]>(
      "UPDATE agents SET status = 'stopped', current_task = NULL, last_activity = ?1 WHERE status != 'stopped' RETURNING id, last_activity",
    ),
  };
  return {
    active(): { active: boolean; since: string | null } {
      const row = q.get.get(SYSTEM_ACTIVE_KEY);
      const active = row?.value === "1";
      return { active, since: active ? (row?.updated_at ?? null) : null };
    },
    setActive: (active: boolean, at: string) => q.set.run(SYSTEM_ACTIVE_KEY, active ? "1" : "0", at),
    /** Agents left in any other state (a crash, a killed worker) are set to stopped; returns the ones changed. */
    markAgentsStopped: (at: string) => q.markStopped.all(at),
  };
}
export type SystemRepository = ReturnType<typeof systemRepository>;
