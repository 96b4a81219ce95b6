import { Database } from "bun:sqlite";
import { dirname } from "node:path";
import { createOwnerOnlyFile, makeOwnerOnlyDir } from "#server/lib/owner-only";
import { watchWrites } from "./sql/sqlite-client";

export type Db = Database;

/** One connection per process: WAL lets readers run beside the single writer; the busy timeout absorbs worker contention. */
export function openDatabase(path: string): Db {
  if (path !== ":memory:") {
    makeOwnerOnlyDir(dirname(path));
    // SQLite creates the -wal and -shm files with the database file's own mode, so they are owner-only too.
    createOwnerOnlyFile(path);
  }
  const db = new Database(path, { create: true, strict: true });
  try {
    configure(db);
  } catch (e) {
    db.close(); // e.g. a full disk refused the WAL index: don't leak the handle to a retry
    throw e;
  }
  // Its writes are counted from the start, whoever makes them: cached reads depend on it (change-stamp.ts).
  watchWrites(db);
  return db;
}

function configure(db: Db) {
  // First: the WAL switch reads the database, and a second connection (the agents worker's) opening
  // while the server writes or checkpoints must wait for the lock, not fail on the spot.
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON");
  // FULL: every commit is fsynced to the WAL before it returns. NORMAL (only in the OS page cache)
  // survives a crash of this process but not of the disk: when a failing disk is remounted
  // read-only, the kernel drops what it had not written, and NORMAL lost acknowledged sign-ups
  // there (tests/faults/read-only-disk.test.ts). Writes here are small and few (sign-ups, runs'
  // progress, agent ticks); FULL costs ~0.2 ms each against ~13 µs, measured on this disk.
  db.exec("PRAGMA synchronous = FULL");
}

/** Writes take the lock up front (BEGIN IMMEDIATE) so two writers never deadlock upgrading a read lock. */
export function writeTx<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}

export function closeDatabase(db: Db): void {
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}
