import type { SqlDb } from "#server/db/sql";

export interface WindowRow {
  count: number;
  reset_ms: number;
}

export function rateWindowRepository(db: SqlDb) {
  return {
    /** Counts one use of `key` at `now`: a new window when the last one ended. One statement, so instances never lose a count. */
    spend: (key: string, now: number, windowMs: number) =>
      db.one<WindowRow>(
        `INSERT INTO rate_windows (key, count, reset_ms) VALUES ($1, 1, $2)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN rate_windows.reset_ms <= $3 THEN 1 ELSE rate_windows.count + 1 END,
             reset_ms = CASE WHEN rate_windows.reset_ms <= $3 THEN excluded.reset_ms ELSE rate_windows.reset_ms END
           RETURNING count, reset_ms`,
        [key, now + windowMs, now],
      ),
    find: (key: string) => db.one<WindowRow>("SELECT count, reset_ms FROM rate_windows WHERE key = $1", [key]),
    refund: (key: string, now: number) =>
      db.run("UPDATE rate_windows SET count = count - 1 WHERE key = $1 AND reset_ms > $2 AND count > 0", [key, now]),
    remove: (key: string) => db.run("DELETE FROM rate_windows WHERE key = $1", [key]),
    /** Windows that ended: nothing reads them again. */
    sweep: (now: number) => db.run("DELETE FROM rate_windows WHERE reset_ms <= $1", [now]),
  };
}
