// Writing A/B traffic: the ingest endpoint (main thread) and the visitor simulator (agents
// worker) both come through here, so counters and the per-minute series always agree.
import type { SqlDb } from "#server/db/sql";

export interface TrafficWrite {
  experimentId: string;
  variantId: string;
  /** 'YYYY-MM-DDTHH:MM' (UTC minute). */
  bucket: string;
  source: "real" | "simulated";
  impressions: number;
  conversions: number;
}

export const minuteBucket = (ms: number) => new Date(ms).toISOString().slice(0, 16);

export function trafficRepository(db: SqlDb) {
  const series = db.dialect.upsert(
    "experiment_traffic",
    ["experiment_id", "variant_id", "bucket", "source", "impressions", "conversions"],
    ["experiment_id", "variant_id", "bucket", "source"],
    { add: ["impressions", "conversions"] },
  );
  return {
    /** Adds traffic to one variant. False (nothing written) when it would make conversions exceed impressions. */
    add: (t: TrafficWrite): Promise<boolean> =>
      db.tx(async () => {
        const bumped = await db.run(
          "UPDATE experiment_variants SET impressions = impressions + $1, conversions = conversions + $2 WHERE id = $3 AND conversions + $2 <= impressions + $1",
          [t.impressions, t.conversions, t.variantId],
        );
        if (bumped !== 1) return false;
        await db.run(series, [t.experimentId, t.variantId, t.bucket, t.source, t.impressions, t.conversions]);
        return true;
      }),
    /** The first traffic decides where an experiment's visitors come from; true if this call decided it. */
    claim: async (experimentId: string, source: "real" | "simulated") =>
      (await db.run("UPDATE experiments SET traffic = $1 WHERE id = $2 AND traffic = 'pending'", [source, experimentId])) === 1,
  };
}
export type TrafficRepository = ReturnType<typeof trafficRepository>;
