// Answers nobody read (the run gave up waiting, its instance died, a second attempt after a lost
// lease answered again) and their temporary screenshots, deleted once a day old. The scheduler's
// retention pass calls this; the run itself deletes what it read at once.
import type { SqlDb } from "#server/db/sql";
import type { BlobStore } from "#server/modules/storage";
import { captureResultsRepository } from "./repository";
import { TEMP_PREFIX } from "./model";

export const KEEP_UNREAD_MS = 86_400_000;

export interface PruneDeps {
  db: SqlDb;
  store: BlobStore;
  now?: () => number;
}

/** Deletes unread answers and temporary objects older than a day; returns how many of each. */
export async function pruneCaptureResults(deps: PruneDeps, keepMs = KEEP_UNREAD_MS): Promise<{ rows: number; objects: number }> {
  const repo = captureResultsRepository(deps.db);
  const before = (deps.now ?? Date.now)() - keepMs;
  let rows = 0;
  for (let batch = await repo.older(before); batch.length > 0; batch = await repo.older(before)) {
    for (const r of batch) {
      if (r.blob_key) await deps.store.delete(r.blob_key);
      rows += await repo.remove(r.job_id);
    }
  }
  // Objects whose row is gone (a put whose row write failed, a row deleted with its job): by age alone.
  let objects = 0;
  for await (const blob of deps.store.list(TEMP_PREFIX)) {
    if (blob.modifiedAt >= before) continue;
    await deps.store.delete(blob.key);
    objects++;
  }
  return { rows, objects };
}
