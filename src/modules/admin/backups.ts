import { Database } from "bun:sqlite";
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { conflict, HttpError, notFound, parseInput } from "#server/http/errors";
import { isStorageError } from "#server/http/storage-errors";
import { newId, nowIso } from "#server/lib/ids";
import { createOwnerOnlyFile, makeOwnerOnlyDir } from "#server/lib/owner-only";
import type { Actor } from "#server/modules/audit/model";
import type { AuditService } from "#server/modules/audit/service";
import { filesStore, type BlobBody, type BlobStorage } from "#server/modules/storage";
import { type BackupInfo, type BackupStatus, backupNameParam } from "./model";
import type { AdminRepository } from "./repository";

const NAME = /^design-intel-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.db$/;
const FRESH_FOR_MS = 24 * 60 * 60 * 1000;
const LAST_KEY = "backup.last";

interface LastAttempt {
  at: string;
  ok: boolean;
  error?: string;
}

const stampOf = (t: number) => nowIso(t).replace(/[-:.]/g, "");

function createdAtOf(name: string): string | null {
  const m = NAME.exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z` : null;
}

/** Flushes a file (or directory entry) to disk so a crash right after cannot leave a half-written backup. */
function fsyncPath(path: string) {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function integrityProblem(path: string): string | null {
  const copy = new Database(path, { readonly: true });
  try {
    const rows = copy.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all();
    const bad = rows.map((r) => r.integrity_check).filter((r) => r !== "ok");
    return bad.length ? bad.slice(0, 3).join("; ") : null;
  } finally {
    copy.close();
  }
}

/**
 * A consistent copy of the open database at `dest`: VACUUM INTO `tmp` (beside `dest`), an integrity
 * check of the copy, fsync, then an atomic rename, so `dest` is either a whole verified copy or absent.
 * Shared by the admin console's backups and `design-intel backup`.
 */
/** What the console says when asked for a backup of a PostgreSQL database. */
export const POSTGRES_BACKUPS =
  "This server keeps its data in PostgreSQL: back it up with pg_dump or your provider's snapshots (docs/scaling.md), not from the console";

export async function writeVerifiedCopy(vacuumInto: (path: string) => Promise<void>, tmp: string, dest: string): Promise<void> {
  try {
    // VACUUM INTO fills an existing empty file and keeps its mode: the copy holds the same hashes.
    createOwnerOnlyFile(tmp);
    await vacuumInto(tmp);
    const problem = integrityProblem(tmp);
    if (problem) throw new Error(`integrity check failed: ${problem}`);
    fsyncPath(tmp);
    renameSync(tmp, dest);
    fsyncPath(dirname(dest));
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Backups are whole-database copies under DATA_DIR/backups, or under backups/ in the object store
 * (STORAGE_URL): VACUUM INTO a temporary name, an integrity check of the copy, fsync, then an
 * atomic rename (or one upload of the verified copy); the newest `keep` are retained.
 */
export function backupService(deps: {
  repo: AdminRepository;
  dataDir: string;
  keep: number;
  audit: AuditService;
  now?: () => number;
  /** Where backups are kept: the files store (DATA_DIR/backups) when absent. */
  storage?: BlobStorage;
}) {
  const now = deps.now ?? Date.now;
  const store = deps.storage?.store ?? filesStore(deps.dataDir);
  // The files store's backups are made in place; an object store's in the working folder, then uploaded.
  const remote = store.kind !== "files";
  const dir = remote ? deps.storage!.workDir! : join(deps.dataDir, "backups");
  const keyOf = (name: string) => `backups/${name}`;

  async function list(): Promise<BackupInfo[]> {
    const out: BackupInfo[] = [];
    for await (const b of store.list("backups/")) {
      const name = b.key.slice("backups/".length);
      const createdAt = createdAtOf(name);
      if (createdAt) out.push({ name, createdAt, size: b.size });
    }
    return out.sort((a, b) => b.name.localeCompare(a.name));
  }

  async function prune() {
    for (const old of (await list()).slice(deps.keep)) await store.delete(keyOf(old.name));
  }

  /** A verified copy under a name no backup has yet; returns its name. */
  async function writeBackup(): Promise<string> {
    makeOwnerOnlyDir(dir);
    const tmp = join(dir, `.tmp-${newId()}.db`);
    let t = now();
    while (await store.stat(keyOf(`design-intel-${stampOf(t)}.db`))) t++;
    const name = `design-intel-${stampOf(t)}.db`;
    await writeVerifiedCopy(deps.repo.vacuumInto, tmp, join(dir, name));
    if (!remote) return name;
    try {
      await store.put(keyOf(name), Bun.file(join(dir, name)), "application/vnd.sqlite3");
    } finally {
      rmSync(join(dir, name), { force: true });
    }
    return name;
  }

  return {
    list,

    async create(actor: Actor): Promise<BackupInfo> {
      // A PostgreSQL server is backed up where it runs: its own tools see every instance's writes.
      if (deps.repo.dialect === "postgres") throw conflict(POSTGRES_BACKUPS);
      let name: string;
      try {
        name = await writeBackup();
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        try {
          await deps.repo.putSetting(LAST_KEY, { at: nowIso(now()), ok: false, error } satisfies LastAttempt, nowIso(now()));
          await deps.audit.recordBy(actor, "admin.backup_failed", null, { error });
        } catch (recordError) {
          // A full disk fails the record too; the answer below still says what happened.
          if (!isStorageError(recordError)) throw recordError;
        }
        // Full or read-only storage (or an object store out of reach) passes: the central handler answers 503 with Retry-After.
        if (isStorageError(e)) throw e;
        throw new HttpError(500, `Backup failed: ${error}`);
      }
      await deps.repo.putSetting(LAST_KEY, { at: nowIso(now()), ok: true } satisfies LastAttempt, nowIso(now()));
      await prune();
      const info = { name, createdAt: createdAtOf(name)!, size: (await store.stat(keyOf(name)))?.size ?? 0 };
      await deps.audit.recordBy(actor, "admin.backup_created", name, { size: info.size });
      return info;
    },

    /** One backup to stream; the name must match the backup pattern exactly, so no key can escape the folder. */
    async open(actor: Actor, rawName: string): Promise<{ body: BlobBody["body"]; name: string }> {
      const { name } = parseInput(backupNameParam, { name: rawName });
      const found = await store.open(keyOf(name));
      if (!found) throw notFound("Backup not found");
      await deps.audit.recordBy(actor, "admin.backup_downloaded", name);
      return { body: found.body, name };
    },

    async status(): Promise<{
      backupStatus: BackupStatus;
      lastBackup: string | null;
      lastBackupError: string | null;
      backupCount: number;
    }> {
      const all = await list();
      const newest = all[0]?.createdAt ?? null;
      const last = await deps.repo.getSetting<LastAttempt>(LAST_KEY);
      let backupStatus: BackupStatus;
      if (last && !last.ok) backupStatus = "failed";
      else if (!newest) backupStatus = "none";
      else backupStatus = now() - Date.parse(newest) < FRESH_FOR_MS ? "healthy" : "overdue";
      return {
        backupStatus,
        lastBackup: newest,
        lastBackupError: last && !last.ok ? (last.error ?? "unknown error") : null,
        backupCount: all.length,
      };
    },
  };
}

export type BackupService = ReturnType<typeof backupService>;
