import type { SqlDb } from "#server/db/sql";

export function discoveryRepository(db: SqlDb) {
  return {
    /** The target's URL when `ownerId` owns it, else null (someone else's target is not found). */
    // A target belongs to a comparison of its owner; owner_id is on the row.
    targetUrl: async (ownerId: string, targetId: string) =>
      (await db.one<{ url: string }>("SELECT url FROM targets WHERE id = $1 AND owner_id = $2", [targetId, ownerId]))?.url ?? null,
  };
}
export type DiscoveryRepository = ReturnType<typeof discoveryRepository>;
