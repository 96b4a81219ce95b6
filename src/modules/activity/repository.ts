import type { Db } from "#server/db/connection";
import type { ActivityEntryDto, ActivityStatus, ActivityType } from "./model";

interface ActivityRow {
  id: string;
  type: ActivityType;
  message: string;
  details: string | null;
  status: ActivityStatus;
  agent_name: string | null;
  metadata: string;
  created_at: string;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const toDto = (r: ActivityRow): ActivityEntryDto => ({
  id: r.id,
  type: r.type,
  message: r.message,
  details: r.details,
  status: r.status,
  agentName: r.agent_name,
  metadata: parseObject(r.metadata),
  createdAt: r.created_at,
});

// One statement serves every filter combination: a NULL parameter switches its clause off.
const LIST = `SELECT id, type, message, details, status, agent_name, metadata, created_at FROM activity_log
  WHERE (?1 = 1 OR user_id IS NULL OR user_id = ?2)
    AND (?3 IS NULL OR type = ?3)
    AND (?4 IS NULL OR status = ?4)
    AND (?5 IS NULL OR id < ?5)
  ORDER BY id DESC LIMIT ?6`;

export function activityRepository(db: Db) {
  const q = {
    insert: db.query<null, [string, string, string, string | null, string, string | null, string, string | null, string]>(
      "INSERT INTO activity_log (id, type, message, details, status, agent_name, metadata, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    list: db.query<ActivityRow, [number, string, string | null, string | null, string | null, number]>(LIST),
    prune: db.query<null, [number]>(
      "DELETE FROM activity_log WHERE id IN (SELECT id FROM activity_log ORDER BY id DESC LIMIT -1 OFFSET ?)",
    ),
  };
  return {
    insert(row: {
      id: string;
      type: string;
      message: string;
      details: string | null;
      status: string;
      agentName: string | null;
      metadata: string;
      userId: string | null;
      createdAt: string;
    }) {
      q.insert.run(row.id, row.type, row.message, row.details, row.status, row.agentName, row.metadata, row.userId, row.createdAt);
    },
    list(f: { isAdmin: boolean; viewerId: string; type?: string; status?: string; before?: string; limit: number }): ActivityEntryDto[] {
      return q.list.all(f.isAdmin ? 1 : 0, f.viewerId, f.type ?? null, f.status ?? null, f.before ?? null, f.limit).map(toDto);
    },
    /** Keeps the newest `keep` entries. */
    prune: (keep: number) => q.prune.run(keep).changes,
  };
}
export type ActivityRepository = ReturnType<typeof activityRepository>;
