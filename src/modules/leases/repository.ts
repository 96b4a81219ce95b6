import type { SqlDb } from "#server/db/sql";

export interface LeaseRow {
  name: string;
  holder: string;
  /** Epoch ms the lease runs out at unless renewed. */
  until_ms: number;
  /** Epoch ms its holder first took it. */
  acquired_ms: number;
}

export function leaseRepository(db: SqlDb) {
  return {
    /**
     * Takes the lease when nobody holds it or its holder let it run out, or renews it for its
     * holder: one statement, so two instances asking at once cannot both get it (the second waits
     * on the row, then finds it taken). Null when another holds it.
     */
    claim: (name: string, holder: string, now: number, ttlMs: number) =>
      db.one<LeaseRow>(
        `INSERT INTO leases (name, holder, until_ms, acquired_ms) VALUES ($1, $2, $3, $4)
           ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms,
             acquired_ms = CASE WHEN leases.holder = excluded.holder THEN leases.acquired_ms ELSE excluded.acquired_ms END
           WHERE leases.holder = excluded.holder OR leases.until_ms < $4
           RETURNING *`,
        [name, holder, now + ttlMs, now],
      ),
    /** Lets the lease go at once (a clean stop), if this holder has it. */
    release: async (name: string, holder: string) =>
      (await db.run("DELETE FROM leases WHERE name = $1 AND holder = $2", [name, holder])) === 1,
    find: (name: string) => db.one<LeaseRow>("SELECT * FROM leases WHERE name = $1", [name]),
  };
}
