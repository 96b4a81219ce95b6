// One async handle over Bun.SQL for both dialects: `$1…` parameters, rows as plain objects with the
// same JS values whichever database answered, and transactions that cannot interleave.
import { AsyncLocalStorage } from "node:async_hooks";
import { SQL } from "bun";
import { type Dialect, postgresDialect, sqliteDialect } from "./dialect";
import { type PgChanges, pgChanges } from "./pg-changes";
import { toSqliteParams } from "./placeholders";

export interface Result<T> {
  rows: T[];
  /** Rows an INSERT, UPDATE or DELETE wrote. */
  changes: number;
}

export interface SqlDb {
  readonly dialect: Dialect;
  /** What the database is, for logs, readiness and the console: "sqlite" or "postgres 15.18". */
  readonly detail: string;
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Result<T>>;
  all<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or null. */
  one<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T | null>;
  /** Runs a write; resolves with the number of rows it changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
  /** Several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws (and the
   * error rethrown). `fn` gets the transaction's handle; calls on this outer handle from within
   * `fn`'s async context join the transaction too. A nested `tx` is a savepoint.
   */
  tx<T>(fn: (db: SqlDb) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL's LISTEN, on a connection of its own that is re-established (and re-subscribed,
   * `onlisten` again) when it drops. A NOTIFY is `SELECT pg_notify($1, $2)`, delivered at commit.
   * SQLite has no such thing: there it throws, and nothing on SQLite needs it (one process).
   */
  listen(channel: string, onnotify: (payload: string) => void, onlisten?: () => void): Promise<{ unlisten(): Promise<void> }>;
  /**
   * PostgreSQL: the change stamp of src/db/change-stamp.ts (pg-changes.ts), a number that moves at
   * each write of this handle and each writing commit of any instance, or NaN while those cannot
   * be known. Null on SQLite, whose stamp change-stamp.ts reads from the connection itself.
   */
  readonly changeStamp: (() => number) | null;
  close(): Promise<void>;
}

// PostgreSQL type OIDs whose values Bun hands back in another shape than SQLite's: int8 and
// numeric arrive as strings (COUNT(*), SUM(), identity ids) and booleans as true/false, where
// SQLite gives numbers and 0/1. Rows come back in SQLite's shape, so a repository reads the same
// values on both (docs/decisions/0020-postgres-dialect.md).
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_BOOL = 16;

/** What the handle calls on a client: Bun.SQL for PostgreSQL, sqlite-client.ts over bun:sqlite. */
export interface SqlClient {
  unsafe(text: string, params?: readonly unknown[]): Promise<unknown>;
  close(opts?: { timeout?: number }): Promise<unknown>;
}
type Client = SqlClient;
type Column = { name: string; type: number };

function normalisePg(res: Record<string, unknown>[] & { columns?: Column[] | null }): Record<string, unknown>[] {
  const rows = Array.from(res);
  const fix = (res.columns ?? []).filter((c) => c.type === PG_INT8 || c.type === PG_NUMERIC || c.type === PG_BOOL);
  if (!fix.length) return rows;
  for (const row of rows) {
    for (const c of fix) {
      const v = row[c.name];
      if (v === null || v === undefined) continue;
      row[c.name] = c.type === PG_BOOL ? (v ? 1 : 0) : Number(v);
    }
  }
  return rows;
}

const bindable = (params: readonly unknown[]) => params.map((p) => (p === undefined ? null : p));

/** Serialises SQLite's transactions: its one connection would otherwise run any query issued meanwhile inside them. */
class Gate {
  private tail: Promise<void> = Promise.resolve();
  async hold<T>(fn: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise((r) => (release = r));
    await before;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

/** The transaction open in this async context: its handle, and whether it is still open. */
interface Ambient {
  db: SqlDb;
  open: boolean;
}

interface Shared {
  dialect: Dialect;
  detail: string;
  root: Client;
  gate: Gate | null;
  /**
   * The transaction this async context runs in. A call on the outer handle from inside `tx` joins
   * it, so a repository built on the outer handle works unchanged inside a service's transaction;
   * other requests, in other async contexts, never see it.
   */
  ambient: AsyncLocalStorage<Ambient>;
  /** PostgreSQL: what the change stamp counts (null on SQLite, where the connection counts its own writes). */
  changes: PgChanges | null;
}

/** Whether a statement the handle runs may write: anything but a plain SELECT (a WITH may hold an UPDATE). */
const mayWrite = (text: string) => !/^\s*select\b/i.test(text);

/** Set when a statement inside the transaction may have written: its commit then moves the change stamp. */
interface TxWrites {
  wrote: boolean;
}

function handle(shared: Shared, client: Client, depth: number, txWrites: TxWrites | null = null): SqlDb {
  const sqlite = shared.dialect.name === "sqlite";
  /** At the outer handle: the open transaction of this async context, if any, which the call joins. */
  const joined = () => {
    if (depth > 0) return null;
    const a = shared.ambient.getStore();
    return a?.open ? a.db : null;
  };
  // Outside a transaction, SQLite's statements wait for an open one to end (its one connection
  // would otherwise run them inside it).
  const gated = <T>(fn: () => Promise<T>) => (depth === 0 && shared.gate ? shared.gate.hold(fn) : fn());
  const changes = shared.changes;
  /**
   * PostgreSQL: a statement that may have written moves the stamp once it ran (or failed part way),
   * so a read cached before it is dropped at its next look. Inside a transaction, its commit moves
   * the stamp again (tx): a read by another connection in between did not see what it wrote.
   */
  const wrote = () => {
    if (!changes) return;
    changes.wrote();
    if (txWrites) txWrites.wrote = true;
  };
  const raw = async (text: string, params: readonly unknown[], write: boolean) => {
    let res: unknown;
    try {
      res = await client.unsafe(sqlite ? toSqliteParams(text) : text, bindable(params));
    } finally {
      if (write) wrote();
    }
    const rows = sqlite ? Array.from(res as Record<string, unknown>[]) : normalisePg(res as Record<string, unknown>[]);
    return { rows, changes: Number((res as { affectedRows?: number }).affectedRows ?? 0) };
  };
  const query = async <T>(text: string, params: readonly unknown[] = []): Promise<Result<T>> => {
    const inTx = joined();
    if (inTx) return inTx.query<T>(text, params);
    return (await gated(() => raw(text, params, mayWrite(text)))) as Result<T>;
  };
  const run = async (text: string, params: readonly unknown[] = []): Promise<number> => {
    const inTx = joined();
    if (inTx) return inTx.run(text, params);
    return (await gated(() => raw(text, params, true))).changes;
  };
  const exec = async (script: string) => {
    const inTx = joined();
    if (inTx) return inTx.exec(script);
    await gated(async () => {
      try {
        await client.unsafe(script);
      } finally {
        wrote();
      }
    });
  };

  const tx = async <T>(fn: (db: SqlDb) => Promise<T>): Promise<T> => {
    const inTx = joined();
    if (inTx) return inTx.tx(fn);
    const within = async (inner: SqlDb) => {
      const ambient: Ambient = { db: inner, open: true };
      try {
        return await shared.ambient.run(ambient, () => fn(inner));
      } finally {
        // Work started inside that outlives the transaction goes back to the outer handle.
        ambient.open = false;
      }
    };
    if (sqlite) {
      const name = `sp${depth}`;
      return gated(async () => {
        // IMMEDIATE takes the write lock up front, as writeTx does, so two writers never deadlock upgrading a read lock.
        await client.unsafe(depth === 0 ? "BEGIN IMMEDIATE" : `SAVEPOINT ${name}`);
        try {
          const out = await within(handle(shared, client, depth + 1));
          await client.unsafe(depth === 0 ? "COMMIT" : `RELEASE ${name}`);
          return out;
        } catch (e) {
          // SQLite ends a transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR…): the ROLLBACK then
          // fails with "no transaction is active", and the error that matters is the first one.
          await client.unsafe(depth === 0 ? "ROLLBACK" : `ROLLBACK TO ${name}; RELEASE ${name}`).catch(() => {});
          throw e;
        }
      });
    }
    if (depth > 0)
      return (await (client as unknown as Bun.TransactionSQL).savepoint((t) => within(handle(shared, t, depth + 1, txWrites)))) as T;
    const writes: TxWrites = { wrote: false };
    try {
      return (await (client as SQL).begin((t) => within(handle(shared, t, depth + 1, writes)))) as T;
    } finally {
      // Committed (or rolled back: what a read inside it cached never was) once begin settles.
      if (writes.wrote) changes?.wrote();
    }
  };

  return {
    dialect: shared.dialect,
    detail: shared.detail,
    query,
    all: async (text, params) => (await query(text, params)).rows as never,
    one: async (text, params) => ((await query(text, params)).rows[0] ?? null) as never,
    run,
    exec,
    tx,
    listen: async (channel, onnotify, onlisten) => {
      if (sqlite) throw new Error("LISTEN needs PostgreSQL");
      return (shared.root as SQL).listen(channel, onnotify, onlisten);
    },
    changeStamp: changes ? changes.stamp : null,
    close: async () => {
      if (depth > 0) return;
      await changes?.close();
      // As closeDatabase does: fold the WAL back into the file, so a copy of the file alone is whole.
      if (sqlite) await gated(async () => void (await client.unsafe("PRAGMA wal_checkpoint(TRUNCATE)").catch(() => {})));
      await shared.root.close();
    },
  };
}

/**
 * The handle for an open Bun.SQL client; `openSql` (open.ts) is how the app gets one. `idleMs`
 * (PostgreSQL): how long the change stamp's LISTEN outlives the last look at the stamp.
 */
export function sqlHandle(client: SqlClient, dialectName: "sqlite" | "postgres", detail: string, opts: { idleMs?: number } = {}): SqlDb {
  const sqlite = dialectName === "sqlite";
  return handle(
    {
      dialect: sqlite ? sqliteDialect : postgresDialect,
      detail,
      root: client,
      gate: sqlite ? new Gate() : null,
      ambient: new AsyncLocalStorage(),
      changes: sqlite ? null : pgChanges(client as SQL, { idleMs: opts.idleMs ?? 60_000 }),
    },
    client,
    0,
  );
}
