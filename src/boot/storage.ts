// Opens what the server keeps on disk (the database, migrated, and the signing secret). Booting onto
// a full or read-only disk must not crash: under a supervisor that is a crash loop, and the disk is
// usually freed by someone watching the service. Instead every request on the real port gets the
// same 503 + Retry-After a running server gives for storage trouble, and opening is retried until it
// works; then the normal server takes the port over.
import { databaseTarget, migrateSql, openSql, type SqlDb } from "#server/db/sql";
import { STORAGE_RETRY_AFTER_SECONDS, STORAGE_UNAVAILABLE_MESSAGE, isStorageError } from "#server/http/storage-errors";
import { type TightenResult, makeOwnerOnlyDir, tightenTree } from "#server/lib/owner-only";
import { loadSecret } from "#server/lib/secret";

export interface Storage {
  db: SqlDb;
  secret: Uint8Array;
  migrationsApplied: number[];
  /** Files and folders under DATA_DIR that were readable by others and are made owner-only at boot. */
  permissions: TightenResult;
}

/**
 * DATA_DIR made owner-only, the database DATABASE_URL names (the embedded file in DATA_DIR when
 * absent) opened and migrated, and the signing secret. `poolSize`: PostgreSQL connections at most.
 */
export async function openStorage(
  dataDir: string,
  env: { JWT_SECRET?: string; DATABASE_URL?: string },
  opts: { poolSize?: number } = {},
): Promise<Storage> {
  makeOwnerOnlyDir(dataDir);
  const permissions = tightenTree(dataDir);
  const db = await openSql(databaseTarget(env.DATABASE_URL, dataDir), { max: opts.poolSize });
  try {
    return { db, migrationsApplied: await migrateSql(db), secret: loadSecret(dataDir, env.JWT_SECRET), permissions };
  } catch (e) {
    // The checkpoint on close fails on the same full disk; the handle is closed regardless.
    await db.close().catch(() => {});
    throw e;
  }
}

const codeOf = (e: unknown) => (e && typeof e === "object" && "code" in e ? String((e as { code: unknown }).code) : String(e));

export async function openStorageWhenAvailable(
  open: () => Promise<Storage>,
  listen: { port: number; hostname: string },
  opts: { retryMs?: number; log?: (message: string) => void } = {},
): Promise<Storage> {
  const log = opts.log ?? ((m) => console.error(m));
  try {
    return await open();
  } catch (e) {
    if (!isStorageError(e)) throw e;
    log(`storage unavailable at boot (${codeOf(e)}): answering 503 and retrying every ${(opts.retryMs ?? 2000) / 1000} s`);
  }
  const holding = Bun.serve({
    ...listen,
    fetch: (req) =>
      // The process is alive and will recover by itself: a liveness probe that failed here would
      // have the orchestrator restart it into the same full disk, over and over.
      new URL(req.url).pathname === "/api/health/live"
        ? Response.json({ ok: true }, { headers: { "cache-control": "no-store" } })
        : Response.json(
            { error: STORAGE_UNAVAILABLE_MESSAGE },
            { status: 503, headers: { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS), "cache-control": "no-store" } },
          ),
  });
  try {
    for (;;) {
      await Bun.sleep(opts.retryMs ?? 2000);
      try {
        const storage = await open();
        log("storage available again: starting");
        return storage;
      } catch (e) {
        if (!isStorageError(e)) throw e;
      }
    }
  } finally {
    await holding.stop(true);
  }
}
