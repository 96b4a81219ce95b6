import { Database } from "bun:sqlite";
import type { Db } from "./connection";
import { type SqlDb, sqliteConnectionOf } from "./sql";

const stamps = new WeakMap<Db, () => string>();
let unshared = 0;

/** How long another connection's commit may go unnoticed: as if the request had come that much earlier. */
const OTHER_CONNECTIONS_LAG_MS = 1;

/**
 * A value that changes whenever a write commits anywhere in the database: rows changed through
 * this connection (total_changes(): exact and immediate; every API write goes this way) or a commit
 * by another connection, such as a worker thread, a script or a test (PRAGMA data_version). A read
 * cached under one stamp is still current while the stamp holds. Statements run synchronously, so
 * no write of ours can land between the check and the read it guards.
 *
 * data_version takes the WAL read lock (file-lock system calls) and was the largest cost left on a
 * cached read, so it is re-read at most once per OTHER_CONNECTIONS_LAG_MS.
 *
 * With the async handle, a cached read takes the stamp before its query is issued: a write that
 * lands while it awaits changes the stamp, so the value is dropped at the next look.
 */
export function changeStamp(handle: Db | SqlDb): () => string {
  const db = handle instanceof Database ? handle : sqliteConnectionOf(handle);
  // PostgreSQL: other instances commit too and nothing here hears of it, so nothing is cached.
  if (!db) return () => String(++unshared);
  let stamp = stamps.get(db);
  if (!stamp) {
    const changes = db.query<{ n: number }, []>("SELECT total_changes() AS n");
    const version = db.query<{ data_version: number }, []>("PRAGMA data_version");
    let versionAt = -Infinity;
    let lastVersion = 0;
    stamp = () => {
      const t = performance.now();
      if (t - versionAt >= OTHER_CONNECTIONS_LAG_MS) {
        lastVersion = version.get()?.data_version ?? 0;
        versionAt = t;
      }
      return `${changes.get()?.n ?? 0}:${lastVersion}`;
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
  private stamp = "";

  constructor(
    private readonly current: () => string,
    /** Keys kept at most; past it the oldest is dropped. */
    private readonly max: number,
  ) {}

  /**
   * `stamp` lets a caller reading several caches in one synchronous step (no write between them)
   * read the database's stamp once: each read is a statement.
   */
  get(key: string, load: () => V, stamp: string = this.current()): V {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    }
    if (this.entries.has(key)) return this.entries.get(key)!;
    const value = load();
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }

  /**
   * `get` for an async load: the promise is what is kept, so readers arriving while it runs share
   * one query; a load that fails is forgotten, so the next reader tries again.
   */
  load<T>(this: StampedCache<Promise<T>>, key: string, load: () => Promise<T>, stamp: string = this.current()): Promise<T> {
    const value = this.get(key, load, stamp);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    return value;
  }
}
