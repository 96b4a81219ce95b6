// Reading and writing a comparison's schedule. Ownership is the caller's comparison lookup
// (`ownsComparison`), so another user's comparison id answers 404 like everywhere else.

import type { SqlDb } from "#server/db/sql";
import { badRequest, notFound } from "#server/http/errors";
import { nowIso } from "#server/lib/ids";
import { checkSchedule, nextRunAfter } from "./cron";
import type { ScheduleView } from "./model";
import { scheduleRepository, type ScheduleRow } from "./repository";

export interface ScheduleServiceDeps {
  db: SqlDb;
  /** True when the comparison exists and belongs to the owner. */
  ownsComparison(comparisonId: string, ownerId: string): Promise<boolean>;
  now?: () => number;
  /** Told after every change, so a running Scheduler re-plans its wake-up. */
  onChange?: () => void;
}

const NOT_FOUND = "Comparison not found";

export const toScheduleView = (r: ScheduleRow): ScheduleView => ({ cron: r.cron, timezone: r.timezone, nextRunAt: r.next_run_at });

export function scheduleService(deps: ScheduleServiceDeps) {
  const repo = scheduleRepository(deps.db);
  const now = deps.now ?? Date.now;
  const owned = async (ownerId: string, comparisonId: string) => {
    if (!(await deps.ownsComparison(comparisonId, ownerId))) throw notFound(NOT_FOUND);
  };
  return {
    repo,
    /** `schedule` for GET /api/comparisons/:id (null when none). */
    async get(ownerId: string, comparisonId: string): Promise<ScheduleView | null> {
      const r = await repo.find(comparisonId, ownerId);
      return r ? toScheduleView(r) : null;
    },
    async put(ownerId: string, comparisonId: string, cron: string, timezone: string): Promise<ScheduleView> {
      await owned(ownerId, comparisonId);
      const t = now();
      const checked = checkSchedule(cron, timezone, new Date(t));
      if (!checked.ok) throw badRequest(checked.error);
      const next = nextRunAfter(checked.cron, checked.timezone, new Date(t));
      const nextRunAt = next ? nowIso(next.getTime()) : null;
      if (!(await repo.save({ comparisonId, ownerId, cron: checked.cron, timezone: checked.timezone, nextRunAt, at: nowIso(t) })))
        throw notFound(NOT_FOUND);
      deps.onChange?.();
      return { cron: checked.cron, timezone: checked.timezone, nextRunAt };
    },
    async remove(ownerId: string, comparisonId: string): Promise<void> {
      await owned(ownerId, comparisonId);
      await repo.remove(comparisonId, ownerId);
      deps.onChange?.();
    },
  };
}
