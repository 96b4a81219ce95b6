import type { Db } from "#server/db/connection";

export function discoveryRepository(db: Db) {
  const q = {
    // A target belongs to a comparison of its owner; owner_id is on the row.
    targetUrl: db.query<{ url: string }, [string, string]>("SELECT url FROM targets WHERE id = ? AND owner_id = ?"),
  };
  return {
    /** The target's URL when `ownerId` owns it, else null (someone else's target is not found). */
    targetUrl: (ownerId: string, targetId: string) => q.targetUrl.get(targetId, ownerId)?.url ?? null,
  };
}
export type DiscoveryRepository = ReturnType<typeof discoveryRepository>;
