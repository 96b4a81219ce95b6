// Share links and the few reads of comparisons and runs they need. A link is found by the hash of
// its token, never by the token.
import type { Db } from "#server/db/connection";

export interface ShareRow {
  id: string;
  comparison_id: string;
  run_id: string;
  token_hash: string;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  views: number;
  last_viewed_at: string | null;
}

/** A link as its list shows it: with the run's number and its maker's name. */
export interface ShareListRow extends ShareRow {
  run_number: number;
  creator_email: string | null;
  creator_username: string | null;
}

/** A link opened by its token: what the shared page needs to read the run as its owner would. */
export interface OpenedShareRow extends ShareRow {
  owner_id: string;
  comparison_name: string;
  comparison_description: string | null;
  run_number: number;
  run_started_at: string;
  run_finished_at: string | null;
}

export interface ShareRunRow {
  id: string;
  status: string;
}

export function shareRepository(db: Db) {
  const q = {
    insert: db.query<null, [string, string, string, string, string, string, string | null]>(
      `INSERT INTO share_links (id, comparison_id, run_id, token_hash, created_by, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    count: db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM share_links WHERE comparison_id = ?"),
    list: db.query<ShareListRow, [string]>(
      `SELECT s.*, r.number AS run_number, u.email AS creator_email, u.username AS creator_username
         FROM share_links s JOIN runs r ON r.id = s.run_id LEFT JOIN users u ON u.id = s.created_by
        WHERE s.comparison_id = ? ORDER BY s.created_at DESC, s.rowid DESC`,
    ),
    find: db.query<ShareRow, [string]>("SELECT * FROM share_links WHERE id = ?"),
    revoke: db.query<null, [string, string]>("UPDATE share_links SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL"),
    byHash: db.query<OpenedShareRow, [string]>(
      `SELECT s.*, c.owner_id, c.name AS comparison_name, c.description AS comparison_description,
              r.number AS run_number, r.started_at AS run_started_at, r.finished_at AS run_finished_at
         FROM share_links s JOIN comparisons c ON c.id = s.comparison_id JOIN runs r ON r.id = s.run_id
        WHERE s.token_hash = ?`,
    ),
    view: db.query<null, [string, string]>("UPDATE share_links SET views = views + 1, last_viewed_at = ? WHERE id = ?"),
    owns: db.query<{ n: number }, [string, string]>("SELECT 1 AS n FROM comparisons WHERE id = ? AND owner_id = ?"),
    run: db.query<ShareRunRow, [string, string]>("SELECT id, status FROM runs WHERE id = ? AND comparison_id = ?"),
    latestCompleted: db.query<ShareRunRow, [string]>(
      "SELECT id, status FROM runs WHERE comparison_id = ? AND status = 'completed' ORDER BY number DESC LIMIT 1",
    ),
    snapshotInRun: db.query<{ n: number }, [string, string, string]>(
      "SELECT 1 AS n FROM snapshots WHERE id = ? AND run_id = ? AND comparison_id = ?",
    ),
  };
  return {
    insert: (s: {
      id: string;
      comparisonId: string;
      runId: string;
      tokenHash: string;
      createdBy: string;
      at: string;
      expiresAt: string | null;
    }) => q.insert.run(s.id, s.comparisonId, s.runId, s.tokenHash, s.createdBy, s.at, s.expiresAt),
    countFor: (comparisonId: string) => q.count.get(comparisonId)?.n ?? 0,
    /** Newest first, revoked ones included. */
    listFor: (comparisonId: string) => q.list.all(comparisonId),
    find: (id: string) => q.find.get(id),
    /** False when it was already revoked. */
    revoke: (id: string, at: string) => q.revoke.run(at, id).changes === 1,
    byTokenHash: (hash: string) => q.byHash.get(hash),
    countView: (id: string, at: string) => q.view.run(at, id),
    ownsComparison: (comparisonId: string, userId: string) => q.owns.get(comparisonId, userId) !== null,
    findRun: (runId: string, comparisonId: string) => q.run.get(runId, comparisonId),
    latestCompletedRun: (comparisonId: string) => q.latestCompleted.get(comparisonId),
    /** Whether the snapshot is one of this run's captures (of this comparison). */
    snapshotInRun: (snapshotId: string, runId: string, comparisonId: string) =>
      q.snapshotInRun.get(snapshotId, runId, comparisonId) !== null,
  };
}

export type ShareRepository = ReturnType<typeof shareRepository>;
