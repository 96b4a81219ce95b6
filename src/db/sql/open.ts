// Opens the database DATABASE_URL names and proves it answers, or fails with one line that says
// what is wrong (the boot turns it into the fatal log line).
import { SQL } from "bun";
import { openDatabase } from "#server/db/connection";
import { type SqlDb, sqlHandle } from "./handle";
import { sqliteSql } from "./sqlite-client";
import type { DatabaseTarget } from "./url";

export interface OpenOptions {
  /** PostgreSQL pool size (default 10). */
  max?: number;
  /** Seconds to wait for PostgreSQL to accept a connection (default 10). */
  connectTimeout?: number;
  /** Seconds an unused pooled connection stays open (default 60); the change stamp's LISTEN too, unlooked at. */
  idleTimeout?: number;
}

const MIN_PG = 150000;

export async function openSql(target: DatabaseTarget, opts: OpenOptions = {}): Promise<SqlDb> {
  return target.kind === "sqlite" ? openSqlite(target.path) : openPostgres(target.url, target.where, opts);
}

async function openSqlite(path: string): Promise<SqlDb> {
  try {
    return sqliteSql(openDatabase(path));
  } catch (e) {
    // Its cause keeps SQLite's code: a full or read-only disk is a storage error the boot waits out.
    throw new Error(`DATABASE_URL: cannot open the SQLite file ${path}: ${firstLine(e)}`, { cause: e });
  }
}

async function openPostgres(url: string, where: string, opts: OpenOptions): Promise<SqlDb> {
  const idleTimeout = opts.idleTimeout ?? 60;
  const client = new SQL({ url, max: opts.max ?? 10, connectionTimeout: opts.connectTimeout ?? 10, idleTimeout });
  let version: { num: number; text: string };
  const started = performance.now();
  try {
    const [row] = await client.unsafe(
      "SELECT current_setting('server_version_num')::int AS num, current_setting('server_version') AS text",
    );
    version = row as { num: number; text: string };
  } catch (e) {
    await client.close({ timeout: 0 }).catch(() => {});
    throw new Error(
      `DATABASE_URL: cannot connect to PostgreSQL at ${where}: ${why(e, opts.connectTimeout ?? 10, (performance.now() - started) / 1000)}`,
    );
  }
  if (version.num < MIN_PG) {
    await client.close();
    throw new Error(`DATABASE_URL: PostgreSQL at ${where} is ${version.text}; 15 or later is needed`);
  }
  // The change stamp's LISTEN is let go of when unused as long as a pooled connection is.
  return sqlHandle(client, "postgres", `postgres ${version.text.split(" ")[0]}`, { idleMs: idleTimeout * 1000 });
}

/** Why a connection failed, in words an operator acts on; Bun's own code kept at the end. */
function why(e: unknown, timeout: number, waited: number): string {
  const code = (e as { code?: string })?.code;
  if (code === "ERR_POSTGRES_CONNECTION_REFUSED") return `connection refused, nothing listens there (${code})`;
  if (code?.startsWith("ERR_POSTGRES_CONNECTION") && waited >= timeout * 0.9) return `no connection within ${timeout} s (${code})`;
  return firstLine(e);
}

/** The error's first line, with its code when the message does not already carry it. */
function firstLine(e: unknown): string {
  const err = e as { message?: string; code?: string };
  const msg = String(err?.message ?? e)
    .split("\n")[0]!
    .trim();
  return err?.code && !msg.includes(err.code) ? `${msg} (${err.code})` : msg;
}
