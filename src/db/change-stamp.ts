import { Database } from "bun:sqlite";
import type { Db } from "./connection";
import { type SqlDb, sqliteConnectionOf, watchWrites } from "./sql";

const stamps = new WeakMap<Db, () => number>();
let unshared = 0;

/** How long another connection's commit may go unnoticed: as if the request had come that much earlier. */
const OTHER_CONNECTIONS_LAG_MS = 1;

/**
 * A number that changes whenever a write commits anywhere in the database. A read cached under one
 * stamp is still current while the stamp holds.
 *
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
 * PostgreSQL: other instances of the app commit to the same database and nothing here hears of it,
 * so a stamp there is new at every look and nothing is answered from memory.
 */
export function changeStamp(handle: Db | SqlDb): () => number {
  const db = handle instanceof Database ? handle : sqliteConnectionOf(handle);
  if (!db) return () => ++unshared;
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
