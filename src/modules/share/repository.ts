// Share links and the few reads of comparisons and runs they need. A link is found by the hash of
// its token, never by the token.
import type { SqlDb } from "#server/db/sql";

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

export function shareRepository(db: SqlDb) {
  return {
    insert: (s: {
      id: string;
      comparisonId: string;
      runId: string;
      tokenHash: string;
      createdBy: string;
      at: string;
      expiresAt: string | null;
    }) =>
      db.run(
        `INSERT INTO share_links (id, comparison_id, run_id, token_hash, created_by, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [s.id, s.comparisonId, s.runId, s.tokenHash, s.createdBy, s.at, s.expiresAt],
      ),
    countFor: async (comparisonId: string) =>
      (await db.one<{ n: number }>("SELECT COUNT(*) AS n FROM share_links WHERE comparison_id = $1", [comparisonId]))?.n ?? 0,
    /** Newest first, revoked ones included (ids are UUIDv7: the newer breaks a tie). */
    listFor: (comparisonId: string) =>
      db.all<ShareListRow>(
        `SELECT s.*, r.number AS run_number, u.email AS creator_email, u.username AS creator_username
           FROM share_links s JOIN runs r ON r.id = s.run_id LEFT JOIN users u ON u.id = s.created_by
          WHERE s.comparison_id = $1 ORDER BY s.created_at DESC, s.id DESC`,
        [comparisonId],
      ),
    find: (id: string) => db.one<ShareRow>("SELECT * FROM share_links WHERE id = $1", [id]),
    /** False when it was already revoked. */
    revoke: async (id: string, at: string) =>
      (await db.run("UPDATE share_links SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL", [at, id])) === 1,
    byTokenHash: (hash: string) =>
      db.one<OpenedShareRow>(
        `SELECT s.*, c.owner_id, c.name AS comparison_name, c.description AS comparison_description,
                r.number AS run_number, r.started_at AS run_started_at, r.finished_at AS run_finished_at
           FROM share_links s JOIN comparisons c ON c.id = s.comparison_id JOIN runs r ON r.id = s.run_id
          WHERE s.token_hash = $1`,
        [hash],
      ),
    countView: (id: string, at: string) => db.run("UPDATE share_links SET views = views + 1, last_viewed_at = $1 WHERE id = $2", [at, id]),
    ownsComparison: async (comparisonId: string, userId: string) =>
      (await db.one("SELECT 1 AS n FROM comparisons WHERE id = $1 AND owner_id = $2", [comparisonId, userId])) !== null,
    findRun: (runId: string, comparisonId: string) =>
      db.one<ShareRunRow>("SELECT id, status FROM runs WHERE id = $1 AND comparison_id = $2", [runId, comparisonId]),
    latestCompletedRun: (comparisonId: string) =>
      db.one<ShareRunRow>("SELECT id, status FROM runs WHERE comparison_id = $1 AND status = 'completed' ORDER BY number DESC LIMIT 1", [
        comparisonId,
      ]),
    /** Whether the snapshot is one of this run's captures (of this comparison). */
    snapshotInRun: async (snapshotId: string, runId: string, comparisonId: string) =>
      (await db.one("SELECT 1 AS n FROM snapshots WHERE id = $1 AND run_id = $2 AND comparison_id = $3", [
        snapshotId,
        runId,
        comparisonId,
      ])) !== null,
  };
}

export type ShareRepository = ReturnType<typeof shareRepository>;
