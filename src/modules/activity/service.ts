import type { SqlDb } from "#server/db/sql";
import { newId, nowIso } from "#server/lib/ids";
import {
  ACTIVITY_STATUSES,
  ACTIVITY_TYPES,
  type ActivityEntryDto,
  type ActivityInput,
  type ActivityQuery,
  type ActivityViewer,
} from "./model";
import { activityRepository } from "./repository";

/** Entries are short status lines; bounded copies keep one noisy caller from bloating the table. */
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The log keeps this many entries; older ones are pruned by the agents' housekeeping. */
export const ACTIVITY_RETENTION = 20_000;

export function activityService(db: SqlDb, now: () => number = Date.now) {
  const repo = activityRepository(db);

  /** Writes one entry and returns it as the API shows it. Other modules call this (e.g. comparisons' recordActivity). */
  async function record(entry: ActivityInput): Promise<ActivityEntryDto> {
    const dto: ActivityEntryDto = {
      id: newId(),
      // Spec §3: other types are treated as system; a caller's typo must not fail its own flow.
      type: (ACTIVITY_TYPES as readonly string[]).includes(entry.type) ? entry.type : "system",
      message: clip(entry.message, 300),
      details: entry.details ? clip(entry.details, 2000) : null,
      status: (ACTIVITY_STATUSES as readonly string[]).includes(entry.status) ? entry.status : "info",
      agentName: entry.agentName ?? null,
      metadata: entry.metadata ?? {},
      createdAt: nowIso(now()),
    };
    await repo.insert({ ...dto, metadata: JSON.stringify(dto.metadata), userId: entry.userId ?? null });
    return dto;
  }

  return {
    record,
    /** Newest first; a member sees shared entries and the workspace's own, a site admin sees everything. */
    list(viewer: ActivityViewer, q: ActivityQuery): Promise<ActivityEntryDto[]> {
      return repo.list({
        isAdmin: viewer.role === "admin",
        viewerId: viewer.id,
        type: q.type,
        status: q.status,
        before: q.before,
        limit: q.limit,
      });
    },
    prune: () => repo.prune(ACTIVITY_RETENTION),
  };
}
export type ActivityService = ReturnType<typeof activityService>;
