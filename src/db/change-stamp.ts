import { Database } from "bun:sqlite";
import type { Db } from "./connection";
import { type SqlDb, sqliteConnectionOf, watchWrites } from "./sql";

const stamps = new WeakMap<Db, () => number>();

/** How long another connection's commit may go unnoticed: as if the request had come that much earlier. */
const OTHER_CONNECTIONS_LAG_MS = 1;

/**
 * A number that changes whenever a write commits anywhere in the database. A read cached under one
 * stamp is still current while the stamp holds.
 *
 * SQLite:
 * - Writes on this connection are counted as they run (watchWrites, sqlite-client.ts): every
 *   statement that is not read-only, through the handle (every API write goes this way) or on the
 *   connection itself (a test's rows, a script's). Reading the count is no query.
 * - A commit by another connection (the agents worker's, a script's, another process's) moves
 *   PRAGMA data_version. That takes the WAL read lock (file-lock system calls), so it is re-read at
 *   most once per OTHER_CONNECTIONS_LAG_MS.
 *
 * Statements run synchronously, so no write of ours can land between the check and the read it
 * guards. With the async handle, a cached read takes the stamp before its query is issued: a write
 * that lands while it awaits moves the stamp, so the value is dropped at the next look.
 *
 * PostgreSQL (the handle's changeStamp, sql/pg-changes.ts): other instances of the app commit to
 * the same database, and every commit that writes announces itself (migrations/pg/0028: a NOTIFY,
 * one per transaction, delivered at commit).
 * - The handle counts its own statements that may write (all but a plain SELECT) as they return,
 *   and each transaction that wrote once more after its commit: a read after our own write is
 *   never stale, even before our announcement comes back.
 * - A LISTEN hears every announcement, from any instance, and moves the stamp.
 * - The window: an announcement arrives a little after its commit, so another instance's commit
 *   may go unnoticed for as long as it is in flight, as another connection's does for up to
 *   OTHER_CONNECTIONS_LAG_MS on SQLite. Each handle NOTIFYs a ping of its own every 500 ms;
 *   PostgreSQL delivers notifications in commit order, so hearing a ping back proves every commit
 *   made before it was sent has been heard. The stamp holds only while such a ping sent within the
 *   last LISTEN_LAG_MS (1.5 s) has come back: a request is answered at worst as if it had come
 *   that much earlier, typically a millisecond or two. Otherwise (before the LISTEN is first in
 *   place, once it has dropped, while it lags) the stamp is NaN, equal to nothing, and every read
 *   goes to the database. A LISTEN that comes back moves the stamp: commits made while it was
 *   down went unheard.
 */
export function changeStamp(handle: Db | SqlDb): () => number {
  if (!(handle instanceof Database) && handle.changeStamp) return handle.changeStamp;
  const db = handle instanceof Database ? handle : sqliteConnectionOf(handle);
  if (!db) return () => NaN;
  let stamp = stamps.get(db);
  if (!stamp) {
    const written = watchWrites(db);
    const version = Database.prototype.query.call(db, "PRAGMA data_version") as ReturnType<Db["query"]>;
    let versionAt = -Infinity;
    let lastVersion: unknown;
    // Commits by other connections seen so far; with our own writes, what the stamp adds up.
    let theirs = 0;
    stamp = () => {
      const t = performance.now();
      if (t - versionAt >= OTHER_CONNECTIONS_LAG_MS) {
        const v = (version.get() as { data_version: number } | null)?.data_version;
        if (v !== lastVersion) {
          lastVersion = v;
          theirs++;
        }
        versionAt = t;
      }
      return written.n + theirs;
    };
    stamps.set(db, stamp);
  }
  return stamp;
}

/**
 * Reads kept until the next write anywhere in the database. Hot read paths use it (the user behind
 * every API call, the comparisons list dashboards poll); a change of any kind empties it, so what it
 * answers is never older than the last commit.
 */
export class StampedCache<V> {
  private readonly entries = new Map<string, V>();
  private stamp = NaN;

  constructor(
    private readonly current: () => number,
    /** Keys kept at most; past it the oldest is dropped. */
    private readonly max: number,
  ) {}

  /**
   * `stamp` lets a caller reading several caches in one synchronous step (no write between them)
   * read the database's stamp once.
   */
  get(key: string, load: () => V, stamp: number = this.current()): V {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    } else {
      const kept = this.entries.get(key);
      if (kept !== undefined || this.entries.has(key)) return kept as V;
    }
    const value = load();
    this.keep(key, value);
    return value;
  }

  /**
   * `get` for an async load: the promise is what is kept, so readers arriving while it runs share
   * one query; a load that fails is forgotten, so the next reader tries again.
   */
  load<T>(this: StampedCache<Promise<T>>, key: string, load: () => Promise<T>, stamp: number = this.current()): Promise<T> {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    } else {
      const kept = this.entries.get(key);
      if (kept !== undefined) return kept;
    }
    const value = load();
    this.keep(key, value);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    return value;
  }

  private keep(key: string, value: V): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}
