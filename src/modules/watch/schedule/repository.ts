import type { SqlDb } from "#server/db/sql";

/** PostgreSQL: a schedule changed through some instance; the acting scheduler listens. */
export const SCHEDULES_CHANNEL = "design_intel_schedules";

export interface ScheduleRow {
  comparison_id: string;
  owner_id: string;
  cron: string;
  timezone: string;
  next_run_at: string | null;
  last_run_at: string | null;
  last_skip_at: string | null;
  last_skip_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface SlotOutcome {
  comparisonId: string;
  /** The next_run_at the decision was made on: a schedule edited meanwhile is left alone. */
  slot: string;
  nextRunAt: string | null;
  at: string;
  /** Set when a run was handed over. */
  ranAt?: string;
  /** Set when the slot was skipped (previous run still going, start refused). */
  skipReason?: string;
}

export function scheduleRepository(db: SqlDb) {
  return {
    /** Creates or replaces the schedule; returns false when the comparison's row belongs to someone else. */
    async save(s: {
      comparisonId: string;
      ownerId: string;
      cron: string;
      timezone: string;
      nextRunAt: string | null;
      at: string;
    }): Promise<boolean> {
      return (
        (await db.run(
          `INSERT INTO comparison_schedules (comparison_id, owner_id, cron, timezone, next_run_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6)
           ON CONFLICT (comparison_id) DO UPDATE SET
             cron = excluded.cron, timezone = excluded.timezone, next_run_at = excluded.next_run_at,
             last_skip_at = NULL, last_skip_reason = NULL, updated_at = excluded.updated_at
           WHERE comparison_schedules.owner_id = excluded.owner_id`,
          [s.comparisonId, s.ownerId, s.cron, s.timezone, s.nextRunAt, s.at],
        )) > 0
      );
    },
    find: (comparisonId: string, ownerId: string) =>
      db.one<ScheduleRow>("SELECT * FROM comparison_schedules WHERE comparison_id = $1 AND owner_id = $2", [comparisonId, ownerId]),
    remove: async (comparisonId: string, ownerId: string): Promise<boolean> =>
      (await db.run("DELETE FROM comparison_schedules WHERE comparison_id = $1 AND owner_id = $2", [comparisonId, ownerId])) > 0,
    due: (nowIso: string, limit = 1000) =>
      db.all<ScheduleRow>(
        "SELECT * FROM comparison_schedules WHERE next_run_at IS NOT NULL AND next_run_at <= $1 ORDER BY next_run_at, comparison_id LIMIT $2",
        [nowIso, limit],
      ),
    earliestNext: async (): Promise<string | null> =>
      (await db.one<{ next_run_at: string | null }>("SELECT MIN(next_run_at) AS next_run_at FROM comparison_schedules"))?.next_run_at ??
      null,
    /** Records what happened to a due slot; false if the schedule changed since it was read. */
    async settle(o: SlotOutcome): Promise<boolean> {
      const changed =
        o.skipReason === undefined
          ? await db.run(
              `UPDATE comparison_schedules SET next_run_at = $1, last_run_at = $2, updated_at = $3
                WHERE comparison_id = $4 AND next_run_at = $5`,
              [o.nextRunAt, o.ranAt ?? o.at, o.at, o.comparisonId, o.slot],
            )
          : await db.run(
              `UPDATE comparison_schedules SET next_run_at = $1, last_skip_at = $3, last_skip_reason = $2, updated_at = $3
                WHERE comparison_id = $4 AND next_run_at = $5`,
              [o.nextRunAt, o.skipReason, o.at, o.comparisonId, o.slot],
            );
      return changed > 0;
    },
    count: async (): Promise<number> => (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM comparison_schedules"))?.n ?? 0,
    /** The owner's deferred slots become due now; returns how many. */
    // Deferred is the row's latest outcome: a deferral after its last run (or with no run yet).
    bringDeferredForward: (ownerId: string, nowIso: string): Promise<number> =>
      db.run(
        `UPDATE comparison_schedules SET next_run_at = $2, updated_at = $2
          WHERE owner_id = $1 AND next_run_at > $2 AND last_skip_reason LIKE 'deferred:%'
            AND (last_run_at IS NULL OR last_skip_at > last_run_at)`,
        [ownerId, nowIso],
      ),
    /** PostgreSQL: tells the instance that schedules that a schedule's due time moved (delivered at commit). */
    announce: async (): Promise<void> => {
      await db.run("SELECT pg_notify($1, '')", [SCHEDULES_CHANNEL]);
    },
    /** PostgreSQL: calls `fn` at every announce of any instance, and `onlisten` whenever the LISTEN is (re)established. */
    onAnnounced: (fn: () => void, onlisten?: () => void) => db.listen(SCHEDULES_CHANNEL, () => fn(), onlisten),
  };
}

export type ScheduleRepository = ReturnType<typeof scheduleRepository>;
