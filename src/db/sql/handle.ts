// One async handle over Bun.SQL for both dialects: `$1…` parameters, rows as plain objects with the
// same JS values whichever database answered, and transactions that cannot interleave.
import { AsyncLocalStorage } from "node:async_hooks";
import { SQL } from "bun";
import { type Dialect, postgresDialect, sqliteDialect } from "./dialect";
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
   * Runs `fn` in a transaction on its own handle: committed when it resolves, rolled back when it
   * throws (and the error rethrown). Inside, use only the handle `fn` is given; a nested `tx` is a
   * savepoint.
   */
  tx<T>(fn: (db: SqlDb) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// PostgreSQL type OIDs whose values Bun hands back in another shape than SQLite's: int8 and
// numeric arrive as strings (COUNT(*), SUM(), identity ids) and booleans as true/false, where
// SQLite gives numbers and 0/1. Rows come back in SQLite's shape, so a repository reads the same
// values on both (docs/decisions/0020-postgres-dialect.md).
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_BOOL = 16;

type Client = SQL;
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

interface Shared {
  dialect: Dialect;
  detail: string;
  root: Client;
  gate: Gate | null;
  /** Marks the async context of an open transaction, so a stray call on the outer handle fails loudly instead of deadlocking (SQLite) or escaping the transaction (PostgreSQL). */
  inTx: AsyncLocalStorage<true>;
}

function handle(shared: Shared, client: Client, depth: number): SqlDb {
  const sqlite = shared.dialect.name === "sqlite";
  const guard = () => {
    if (depth === 0 && shared.inTx.getStore())
      throw new Error("db: a query on the outer handle inside a transaction; use the handle tx() gave");
  };
  const raw = async (text: string, params: readonly unknown[]) => {
    const res = await client.unsafe(sqlite ? toSqliteParams(text) : text, bindable(params));
    const rows = sqlite ? Array.from(res as Record<string, unknown>[]) : normalisePg(res);
    return { rows, changes: Number((res as { affectedRows?: number }).affectedRows ?? 0) };
  };
  const query = async <T>(text: string, params: readonly unknown[] = []): Promise<Result<T>> => {
    guard();
    // Outside a transaction, SQLite's queries wait for any open one to end.
    const out = depth === 0 && shared.gate ? await shared.gate.hold(() => raw(text, params)) : await raw(text, params);
    return out as Result<T>;
  };
  const exec = async (script: string) => {
    guard();
    const go = async () => void (await client.unsafe(script));
    await (depth === 0 && shared.gate ? shared.gate.hold(go) : go());
  };

  const tx = async <T>(fn: (db: SqlDb) => Promise<T>): Promise<T> => {
    guard();
    if (sqlite) {
      const inner = handle(shared, client, depth + 1);
      const name = `sp${depth}`;
      const body = async () => {
        // IMMEDIATE takes the write lock up front, as writeTx does, so two writers never deadlock upgrading a read lock.
        await client.unsafe(depth === 0 ? "BEGIN IMMEDIATE" : `SAVEPOINT ${name}`);
        try {
          const out = await shared.inTx.run(true, () => fn(inner));
          await client.unsafe(depth === 0 ? "COMMIT" : `RELEASE ${name}`);
          return out;
        } catch (e) {
          await client.unsafe(depth === 0 ? "ROLLBACK" : `ROLLBACK TO ${name}; RELEASE ${name}`);
          throw e;
        }
      };
      return depth === 0 && shared.gate ? shared.gate.hold(body) : body();
    }
    const run = (c: Client) => shared.inTx.run(true, () => fn(handle(shared, c, depth + 1)));
    if (depth === 0) return (await client.begin((t) => run(t))) as T;
    return (await (client as unknown as Bun.TransactionSQL).savepoint((t) => run(t))) as T;
  };

  return {
    dialect: shared.dialect,
    detail: shared.detail,
    query,
    all: async (text, params) => (await query(text, params)).rows as never,
    one: async (text, params) => ((await query(text, params)).rows[0] ?? null) as never,
    run: async (text, params) => (await query(text, params)).changes,
    exec,
    tx,
    close: async () => {
      if (depth === 0) await shared.root.close();
    },
  };
}

/** The handle for an open Bun.SQL client; `openSql` (open.ts) is how the app gets one. */
export function sqlHandle(client: SQL, dialectName: "sqlite" | "postgres", detail: string): SqlDb {
  const sqlite = dialectName === "sqlite";
  return handle(
    {
      dialect: sqlite ? sqliteDialect : postgresDialect,
      detail,
      root: client,
      gate: sqlite ? new Gate() : null,
      inTx: new AsyncLocalStorage(),
    },
    client,
    0,
  );
}
