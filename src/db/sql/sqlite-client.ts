// The SQLite side of the handle runs on a bun:sqlite connection rather than Bun.SQL's SQLite
// adapter: the same connection then serves code still written against it synchronously (one
// file, one writer, `:memory:` shared), and bun:sqlite keeps each statement compiled
// (docs/decisions/0020-postgres-dialect.md).
import type { Database } from "bun:sqlite";
import { type SqlClient, type SqlDb, sqlHandle } from "./handle";

type Rows = Record<string, unknown>[] & { affectedRows?: number };

/** `unsafe(text, params)` and `close()` over an open bun:sqlite connection, as the handle calls them. */
export function sqliteClient(database: Database): SqlClient {
  return {
    async unsafe(text: string, params?: readonly unknown[]) {
      // Without parameters the text may hold several statements (a migration, BEGIN…).
      if (params === undefined) {
        database.run(text);
        return [] as Rows;
      }
      const stmt = database.query(text);
      const args = params as never[];
      if (stmt.columnNames.length === 0) {
        const rows: Rows = [];
        rows.affectedRows = stmt.run(...args).changes;
        return rows;
      }
      // A SELECT, or a write with RETURNING: one row per row written.
      const rows = stmt.all(...args) as Rows;
      rows.affectedRows = rows.length;
      return rows;
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
