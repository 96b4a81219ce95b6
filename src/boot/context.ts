// What every role opens before it does anything of its own: the environment, the JSON logger, the
// database (migrated), the signing secret and the blob store. A problem with any of them is one
// fatal line naming it, and the process stops before doing any work.
import { rmSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import type { SqlDb } from "#server/db/sql";
import { EnvError, loadEnv, type Env } from "#server/env";
import { createLogger, logFn, type LogFn, type Logger } from "#server/lib/logger";
import { storageFor, storageProblem, type BlobStorage } from "#server/modules/storage";
import { openStorage, openStorageWhenAvailable } from "./storage";

/**
 * What a process runs. `all` is the single process of an embedded install (and of `design-intel`
 * with no command): it serves, captures and schedules. The other three split that work between
 * processes sharing one PostgreSQL database (docs/decisions/0023-roles-and-leases.md).
 */
export type Role = "all" | "serve" | "worker" | "scheduler";

export interface BootContext {
  role: Role;
  /** The environment, DATA_DIR made absolute. */
  env: Env;
  dataDir: string;
  logger: Logger;
  log: LogFn;
  db: SqlDb;
  secret: Uint8Array;
  storage: BlobStorage;
  /** True on PostgreSQL: other instances may share the database, so work done once goes through leases. */
  shared: boolean;
  /** This process as leases, jobs and the console name it: host, process id and a random tag. */
  instance: string;
}

/** DATABASE_URL names PostgreSQL (the only database more than one process may share). */
export const isPostgresUrl = (url: string | undefined): boolean => /^postgres(ql)?:\/\//.test((url ?? "").trim());

/**
 * PostgreSQL connections a role's pool keeps at most, besides one for each channel it listens on: a
 * deployment's instances share the server's max_connections. A serve answers requests side by side;
 * a worker needs about one per job it runs; a scheduler's work is a few statements at a time.
 */
function poolSizeOf(role: Role, env: Env): number | undefined {
  if (role === "worker") return env.CAPTURE_CONCURRENCY + 4;
  if (role === "scheduler") return 6;
  return undefined;
}

/** One line at fatal level, written at once (the process exits right after). */
function fatal(fields: object | string, message?: string): never {
  const logger = createLogger({ level: "info", sync: true });
  if (typeof fields === "string") logger.fatal(fields);
  else logger.fatal(fields, message);
  process.exit(1);
}

/** `asked`: the command's role; `serve` on SQLite is the single process (`all`): the embedded database is one machine's file. */
export async function openContext(asked: Role): Promise<BootContext> {
  let env: Env;
  try {
    env = loadEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      // LOG_LEVEL itself may be among the bad values: this one line is always written.
      const [title, ...problems] = e.message.split("\n");
      fatal({ problems: problems.map((p) => p.trim()) }, title!.replace(/:$/, ""));
    }
    throw e;
  }
  const shared = isPostgresUrl(env.DATABASE_URL);
  const role: Role = asked === "serve" && !shared ? "all" : asked;
  const logger = createLogger({ level: env.LOG_LEVEL });
  // Everything this process writes (database, screenshots, backups, secret) is for its own account only.
  process.umask(0o077);
  const dataDir = resolve(env.DATA_DIR);
  let opened;
  try {
    opened = await openStorageWhenAvailable(
      () => openStorage(dataDir, env, { poolSize: poolSizeOf(role, env) }),
      { port: env.PORT, hostname: env.HOST },
      { log: (m) => logger.warn(m) },
    );
  } catch (e) {
    // PostgreSQL unreachable, refusing, too old: one fatal line that names it (its password never shown).
    const message = e instanceof Error ? e.message : String(e);
    if (!message.startsWith("DATABASE_URL: ")) throw e;
    fatal(message);
  }
  const { db, secret, migrationsApplied, permissions } = opened;
  logger.info({ database: db.detail, role }, `database: ${db.detail}`);
  if (migrationsApplied.length) logger.info({ versions: migrationsApplied }, `migrations applied: ${migrationsApplied.join(", ")}`);
  if (permissions.fixed)
    logger.info({ fixed: permissions.fixed }, `made ${permissions.fixed} files and folders under ${dataDir} owner-only`);
  for (const f of permissions.failed.slice(0, 5))
    logger.error({ path: f.path, code: f.code }, `could not make ${f.path} owner-only (${f.code})`);

  // STORAGE_URL: an object store that cannot be reached, has no such bucket or refuses the
  // credentials stops the process here, in one line, before anything is captured into it.
  const storage = storageFor({ ...env, DATA_DIR: dataDir });
  const problem = await storageProblem(env, storage.store);
  if (problem) {
    if (storage.workDir) rmSync(storage.workDir, { recursive: true, force: true });
    fatal({ storage: storage.store.description }, problem);
  }
  logger.info({ storage: storage.store.description }, `files kept in ${storage.store.description}`);
  // Site secrets saved through one instance are read by whichever drives the run: without a shared
  // key, each instance would make its own under its DATA_DIR and read none of the others'.
  if (shared && !env.SECRETS_KEY)
    logger.warn(
      "SECRETS_KEY is not set: give every instance of this deployment the same one, or site secrets saved through one cannot be read by another",
    );

  return {
    role,
    env: { ...env, DATA_DIR: dataDir },
    dataDir,
    logger,
    log: logFn(logger),
    db,
    secret,
    storage,
    shared,
    instance: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
  };
}
