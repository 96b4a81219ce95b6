import type { Db } from "#server/db/connection";

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

export function scheduleRepository(db: Db) {
  const q = {
    upsert: db.query<null, [string, string, string, string, string | null, string, string]>(
      `INSERT INTO comparison_schedules (comparison_id, owner_id, cron, timezone, next_run_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT (comparison_id) DO UPDATE SET
         cron = excluded.cron, timezone = excluded.timezone, next_run_at = excluded.next_run_at,
         last_skip_at = NULL, last_skip_reason = NULL, updated_at = excluded.updated_at
       WHERE comparison_schedules.owner_id = excluded.owner_id`,
    ),
    find: db.query<ScheduleRow, [string, string]>("SELECT * FROM comparison_schedules WHERE comparison_id = ? AND owner_id = ?"),
    remove: db.query<null, [string, string]>("DELETE FROM comparison_schedules WHERE comparison_id = ? AND owner_id = ?"),
    due: db.query<ScheduleRow, [string, number]>(
      "SELECT * FROM comparison_schedules WHERE next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, comparison_id LIMIT ?",
    ),
    earliest: db.query<{ next_run_at: string | null }, []>("SELECT MIN(next_run_at) AS next_run_at FROM comparison_schedules"),
    ran: db.query<null, [string | null, string, string, string, string]>(
      `UPDATE comparison_schedules SET next_run_at = ?1, last_run_at = ?2, updated_at = ?3
        WHERE comparison_id = ?4 AND next_run_at = ?5`,
    ),
    skipped: db.query<null, [string | null, string, string, string, string]>(
      `UPDATE comparison_schedules SET next_run_at = ?1, last_skip_at = ?3, last_skip_reason = ?2, updated_at = ?3
        WHERE comparison_id = ?4 AND next_run_at = ?5`,
    ),
    count: db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM comparison_schedules"),
    // Deferred is the row's latest outcome: a deferral after its last run (or with no run yet).
    bringForward: db.query<null, [string, string]>(
      `UPDATE comparison_schedules SET next_run_at = ?2, updated_at = ?2
        WHERE owner_id = ?1 AND next_run_at > ?2 AND last_skip_reason LIKE 'deferred:%'
          AND (last_run_at IS NULL OR last_skip_at > last_run_at)`,
    ),
  };
  return {
    /** Creates or replaces the schedule; returns false when the comparison's row belongs to someone else. */
    save(s: { comparisonId: string; ownerId: string; cron: string; timezone: string; nextRunAt: string | null; at: string }): boolean {
      return q.upsert.run(s.comparisonId, s.ownerId, s.cron, s.timezone, s.nextRunAt, s.at, s.at).changes > 0;
    },
    find: (comparisonId: string, ownerId: string): ScheduleRow | null => q.find.get(comparisonId, ownerId),
    remove: (comparisonId: string, ownerId: string): boolean => q.remove.run(comparisonId, ownerId).changes > 0,
    due: (nowIso: string, limit = 1000): ScheduleRow[] => q.due.all(nowIso, limit),
    earliestNext: (): string | null => q.earliest.get()?.next_run_at ?? null,
    /** Records what happened to a due slot; false if the schedule changed since it was read. */
    settle(o: SlotOutcome): boolean {
      const r =
        o.skipReason === undefined
          ? q.ran.run(o.nextRunAt, o.ranAt ?? o.at, o.at, o.comparisonId, o.slot)
          : q.skipped.run(o.nextRunAt, o.skipReason, o.at, o.comparisonId, o.slot);
      return r.changes > 0;
    },
    count: (): number => q.count.get()?.n ?? 0,
    /** The owner's deferred slots become due now; returns how many. */
    bringDeferredForward: (ownerId: string, nowIso: string): number => q.bringForward.run(ownerId, nowIso).changes,
  };
}

export type ScheduleRepository = ReturnType<typeof scheduleRepository>;
