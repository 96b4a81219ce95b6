import type { SqlDb } from "#server/db/sql";
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

// One statement serves every filter combination: a NULL parameter switches its clause off (cast, so
// PostgreSQL knows its type where it stands alone).
const LIST = `SELECT id, type, message, details, status, agent_name, metadata, created_at FROM activity_log
  WHERE ($1 OR user_id IS NULL OR user_id = $2)
    AND (CAST($3 AS TEXT) IS NULL OR type = $3)
    AND (CAST($4 AS TEXT) IS NULL OR status = $4)
    AND (CAST($5 AS TEXT) IS NULL OR id < $5)
  ORDER BY id DESC LIMIT $6`;

export function activityRepository(db: SqlDb) {
  return {
    async insert(row: {
      id: string;
      type: string;
      message: string;
      details: string | null;
      status: string;
      agentName: string | null;
      metadata: string;
      userId: string | null;
      createdAt: string;
    }): Promise<void> {
      await db.run(
        "INSERT INTO activity_log (id, type, message, details, status, agent_name, metadata, user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        [row.id, row.type, row.message, row.details, row.status, row.agentName, row.metadata, row.userId, row.createdAt],
      );
    },
    async list(f: {
      isAdmin: boolean;
      viewerId: string;
      type?: string;
      status?: string;
      before?: string;
      limit: number;
    }): Promise<ActivityEntryDto[]> {
      const rows = await db.all<ActivityRow>(LIST, [f.isAdmin, f.viewerId, f.type ?? null, f.status ?? null, f.before ?? null, f.limit]);
      return rows.map(toDto);
    },
    /** Keeps the newest `keep` entries. */
    prune: (keep: number) =>
      db.run(`DELETE FROM activity_log WHERE id IN (SELECT id FROM activity_log ORDER BY id DESC ${db.dialect.noLimit} OFFSET $1)`, [keep]),
  };
}
export type ActivityRepository = ReturnType<typeof activityRepository>;
