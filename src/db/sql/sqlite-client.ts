// The SQLite side of the handle runs on a bun:sqlite connection rather than Bun.SQL's SQLite
// adapter: the same connection then serves code still written against it synchronously (one
// file, one writer, `:memory:` shared), and bun:sqlite keeps each statement compiled
// (docs/decisions/0020-postgres-dialect.md).
import { Database, type Statement } from "bun:sqlite";
import { type SqlClient, type SqlDb, sqlHandle } from "./handle";

type Rows = Record<string, unknown>[] & { affectedRows?: number };

/** Statements run on a connection that may have written: what its change stamp counts (change-stamp.ts). */
export interface WriteCount {
  n: number;
}

const writeCounts = new WeakMap<Database, WriteCount>();
// The handle's own path to the connection: the prototype's methods, never the counting ones that
// watchWrites puts on the connection for everyone else.
const runText = Database.prototype.run;
const prepared = Database.prototype.query;

/**
 * The running count of writes on `database`, through its handle or not: each run of a statement
 * that is not read-only (SQLite's sqlite3_stmt_readonly), and each `db.run`/`db.exec` text. Besides
 * the handle's own, every statement the connection hands out (`db.query`, `db.prepare`, and so
 * `db.transaction`) counts its runs: what tests and scripts write on it directly is never missed,
 * and the API's reads cost nothing more. Counted from the first call on, so a connection is watched
 * as it opens (openDatabase does); a statement prepared on it before then is not seen.
 */
export function watchWrites(database: Database): WriteCount {
  let count = writeCounts.get(database);
  if (count) return count;
  writeCounts.set(database, (count = { n: 0 }));
  const written = count;
  const counted =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return fn(...args);
      } finally {
        written.n++;
      }
    };
  const statements = new WeakMap<Statement, Statement>();
  const watched = (stmt: Statement): Statement => {
    // A statement SQLite calls read-only writes nothing (BEGIN and COMMIT included: the writes
    // between them count themselves), so it goes out as it is.
    if (stmt.readonly) return stmt;
    let proxy = statements.get(stmt);
    if (!proxy) {
      proxy = new Proxy(stmt, {
        get(target, key) {
          const value = Reflect.get(target, key, target) as unknown;
          if (typeof value !== "function") return value;
          // as(Class) answers the statement itself: hand back the watched one.
          if (key === "as") return (...args: unknown[]) => (value.apply(target, args), proxy);
          return counted((...args: unknown[]) => {
            const out = value.apply(target, args) as unknown;
            // iterate(): each row stepped may be a write (RETURNING), so each step counts.
            if (out && typeof out === "object" && typeof (out as Iterator<unknown>).next === "function") {
              const it = out as IterableIterator<unknown>;
              const next = it.next.bind(it);
              it.next = counted(next) as typeof it.next;
            }
            return out;
          });
        },
      });
      statements.set(stmt, proxy);
    }
    return proxy;
  };
  const db = database as unknown as Record<string, unknown>;
  db.run = db.exec = counted((...args: unknown[]) => runText.apply(database, args as never));
  db.query = (text: string) => watched(prepared.call(database, text));
  const prepare = Database.prototype.prepare;
  db.prepare = (...args: unknown[]) => watched(prepare.apply(database, args as never));
  return count;
}

/** `unsafe(text, params)` and `close()` over an open bun:sqlite connection, as the handle calls them. */
export function sqliteClient(database: Database): SqlClient {
  const written = watchWrites(database);
  return {
    async unsafe(text: string, params?: readonly unknown[]) {
      // Without parameters the text may hold several statements (a migration, BEGIN…).
      if (params === undefined) {
        try {
          runText.call(database, text);
        } finally {
          written.n++;
        }
        return [] as Rows;
      }
      const stmt = prepared.call(database, text);
      const args = params as never[];
      // Counted after it ran, even when it failed part way: a cached read taken before then is
      // dropped at its next look, and one taken after it already saw what it did.
      try {
        if (stmt.columnNames.length === 0) {
          const rows: Rows = [];
          rows.affectedRows = stmt.run(...args).changes;
          return rows;
        }
        // A SELECT, or a write with RETURNING: one row per row written.
        const rows = stmt.all(...args) as Rows;
        rows.affectedRows = rows.length;
        return rows;
      } finally {
        if (!stmt.readonly) written.n++;
      }
    },
    async close() {
      database.close();
    },
  };
}

const handles = new WeakMap<Database, SqlDb>();
const connections = new WeakMap<SqlDb, Database>();

/** The bun:sqlite connection under a SQLite handle (null for PostgreSQL), for what only it can answer synchronously. */
export const sqliteConnectionOf = (sql: SqlDb): Database | null => connections.get(sql) ?? null;

/**
 * The async handle on an open bun:sqlite connection (openDatabase's). One per connection: its
 * transactions are kept apart by the handle's own queue, which a second handle would not share.
 */
export function sqliteSql(database: Database): SqlDb {
  let sql = handles.get(database);
  if (!sql) {
    handles.set(database, (sql = sqlHandle(sqliteClient(database), "sqlite", "sqlite")));
    connections.set(sql, database);
  }
  return sql;
}
