// Writing A/B traffic: the ingest endpoint (main thread) and the visitor simulator (agents
// worker) both come through here, so counters and the per-minute series always agree.
import type { Db } from "#server/db/connection";
import { writeTx } from "#server/db/connection";

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

export function trafficRepository(db: Db) {
  const q = {
    bump: db.query<null, [number, number, string]>(
      "UPDATE experiment_variants SET impressions = impressions + ?1, conversions = conversions + ?2 WHERE id = ?3 AND conversions + ?2 <= impressions + ?1",
    ),
    series: db.query<null, [string, string, string, string, number, number]>(
      `INSERT INTO experiment_traffic (experiment_id, variant_id, bucket, source, impressions, conversions) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (experiment_id, variant_id, bucket, source) DO UPDATE SET impressions = impressions + excluded.impressions, conversions = conversions + excluded.conversions`,
    ),
    claimTraffic: db.query<null, [string, string]>("UPDATE experiments SET traffic = ? WHERE id = ? AND traffic = 'pending'"),
  };
  return {
    /** Adds traffic to one variant. False (nothing written) when it would make conversions exceed impressions. */
    add(t: TrafficWrite): boolean {
      return writeTx(db, () => {
        if (q.bump.run(t.impressions, t.conversions, t.variantId).changes !== 1) return false;
        q.series.run(t.experimentId, t.variantId, t.bucket, t.source, t.impressions, t.conversions);
        return true;
      });
    },
    /** The first traffic decides where an experiment's visitors come from; true if this call decided it. */
    claim: (experimentId: string, source: "real" | "simulated") => q.claimTraffic.run(source, experimentId).changes === 1,
  };
}
export type TrafficRepository = ReturnType<typeof trafficRepository>;
