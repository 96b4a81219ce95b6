// A throwaway PostgreSQL cluster on loopback for the tests that run against a real server (issue 30).
// One cluster per process (bun test runs each file in its own process), started on first use,
// stopped and deleted when the process exits; each test asks for a fresh database in it.
// Debian's `postgresql` package provides the binaries (.ci/run installs it through
// scripts/bootstrap.sh); without them, `pgMissing` says why and the tests skip.
import { SQL } from "bun";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseTarget, migrateSql, openSql, postgresDialect, type SqlDb } from "#server/db/sql";
import { freePort } from "./browser-server";

/** The directory holding initdb and pg_ctl: PG_BIN, else the newest Debian install (15 or later). */
function findPgBin(): string | null {
  const given = process.env.PG_BIN;
  if (given) return existsSync(join(given, "initdb")) ? given : null;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .map(Number)
    .filter((v) => v >= 15 && existsSync(join(root, String(v), "bin", "initdb")))
    .sort((a, b) => b - a);
  return versions.length ? join(root, String(versions[0]), "bin") : null;
}

export const pgBin = findPgBin();
/** Why the Postgres tests skip, or null when they run. */
export const pgMissing = pgBin
  ? null
  : "PostgreSQL 15+ binaries not found (install Debian's postgresql, or set PG_BIN): Postgres tests skipped";
if (pgMissing) console.warn(pgMissing);

// Postgres refuses to run as root: then the cluster belongs to the `postgres` account the package creates.
const asRoot = process.getuid?.() === 0;
const USER = "di";

function uidOf(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(Bun.spawnSync(["id", flag, name]).stdout.toString().trim());
  return { uid: id("-u"), gid: id("-g") };
}

const asOwner = (cmd: string[]) => (asRoot ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd);

/** Runs a command as the cluster's owner, without blocking the event loop (initdb takes seconds on a loaded machine). */
async function run(cmd: string[], what: string): Promise<void> {
  const proc = Bun.spawn(asOwner(cmd), { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${what} failed (${code}): ${err.trim() || out.trim()}`);
}

/** How long a test hook that starts the cluster may take: initdb and startup, on a busy machine. */
export const PG_START_TIMEOUT = 90_000;

export interface PgCluster {
  port: number;
  dir: string;
  /** The URL of a database on this cluster. */
  url(database: string): string;
  /** A new database, named uniquely, empty or a copy of `template`; returns its URL. */
  freshDatabase(template?: string): Promise<string>;
  /** Stops the server and keeps its data, as an outage would (fault tests); `resume` starts it again on the same port. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  stop(): void;
}

let cluster: Promise<PgCluster> | null = null;
let counter = 0;

/** This process's cluster, started on the first call. Throws when the binaries are missing (check `pgMissing` first). */
export function postgres(): Promise<PgCluster> {
  cluster ??= start();
  return cluster;
}

/** Stops and deletes this process's cluster, if one was started (a file's last afterAll). */
export async function stopPostgres(): Promise<void> {
  if (!cluster) return;
  const started = cluster;
  cluster = null;
  (await started.catch(() => null))?.stop();
}

/** A fresh database on this process's cluster: its URL. */
export async function freshPgDatabase(): Promise<string> {
  return (await postgres()).freshDatabase();
}

/**
 * A handle on a fresh database of this process's cluster with every migration applied. Call it from
 * `beforeAll` or `beforeEach` with PG_START_TIMEOUT (the first call starts the cluster); close it after.
 */
export async function migratedPg(opts: { max?: number } = {}): Promise<SqlDb> {
  const db = await openSql(databaseTarget(await freshPgDatabase(), "."), { max: opts.max ?? 3 });
  await migrateSql(db);
  return db;
}

let template: Promise<string> | null = null;

/**
 * The name of a database with every migration applied, made once per process: a copy of it
 * (CREATE DATABASE … TEMPLATE) is much quicker than migrating each test's database.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const pg = await postgres();
    const url = await pg.freshDatabase();
    const db = await openSql(databaseTarget(url, "."), { max: 1 });
    try {
      await migrateSql(db);
    } finally {
      // A template is copied only while nobody is connected to it.
      await db.close();
    }
    return new URL(url).pathname.slice(1);
  })();
  return template;
}

/**
 * A handle on a fresh migrated database, usable at once: the database is made on the first
 * statement, so code that builds an app synchronously (makeTestApp) can run on PostgreSQL.
 */
export function lazyMigratedPg(opts: { max?: number } = {}): SqlDb {
  let opened: Promise<SqlDb> | null = null;
  let ready: SqlDb | null = null;
  const real = () =>
    (opened ??= (async () => {
      const pg = await postgres();
      // Test apps are not closed: few connections each (the change stamp's LISTEN among them), let
      // go of soon after, keep the cluster's limit clear.
      return (ready = await openSql(databaseTarget(await pg.freshDatabase(await migratedTemplate()), "."), {
        max: opts.max ?? 2,
        idleTimeout: 2,
      }));
    })());
  return {
    dialect: postgresDialect,
    detail: "postgres",
    query: async (text, params) => (await real()).query(text, params),
    all: async (text, params) => (await real()).all(text, params),
    one: async (text, params) => (await real()).one(text, params),
    run: async (text, params) => (await real()).run(text, params),
    exec: async (script) => (await real()).exec(script),
    tx: async (fn) => (await real()).tx(fn),
    listen: async (channel, onnotify, onlisten) => (await real()).listen(channel, onnotify, onlisten),
    // Until the database is made, nothing can be known of its changes: NaN, equal to nothing.
    changeStamp: () => (ready ? ready.changeStamp!() : NaN),
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}

async function start(): Promise<PgCluster> {
  if (!pgBin) throw new Error(pgMissing ?? "no PostgreSQL");
  // As root the cluster runs as `postgres`, which must reach its folder: /tmp, not a TMPDIR under /root.
  const dir = mkdtempSync(join(asRoot ? "/tmp" : tmpdir(), "di-pg-"));
  const data = join(dir, "data");
  if (asRoot) {
    const { uid, gid } = uidOf("postgres");
    chownSync(dir, uid, gid);
  }
  const pgCtl = join(pgBin, "pg_ctl");
  // immediate: the data is thrown away, so no checkpoint is worth waiting for.
  const stopCmd = asOwner([pgCtl, "-D", data, "-m", "immediate", "-w", "stop"]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (existsSync(join(data, "postmaster.pid"))) Bun.spawnSync(stopCmd, { stdout: "ignore", stderr: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", stop);
  // bun test does not always run "exit" handlers, and a killed test leaves none to run: a watchdog
  // stops and deletes the cluster once this process is gone. `setsid -f` puts it in a session of its
  // own, out of this process's children: a test worker's end takes its children with it, so a
  // watchdog that was one would end too and leave the cluster running.
  const quoted = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;
  Bun.spawn(
    [
      "setsid",
      "-f",
      "sh",
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${stopCmd.map(quoted).join(" ")} >/dev/null 2>&1; rm -rf ${quoted(dir)}`,
    ],
    {
      detached: true,
      stdio: ["ignore", "ignore", "ignore"],
    },
  ).unref();
  try {
    // --no-sync and fsync=off: a test cluster that dies with its data loses nothing anyone wants.
    await run(
      [join(pgBin, "initdb"), "-D", data, "-A", "trust", "-U", USER, "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"],
      "initdb",
    );
    const port = await freePort();
    // max_connections is PostgreSQL's default: a deployment of six role processes (tests/support/cluster.ts)
    // keeps a pool and a listening connection or two each.
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
    const startServer = () => run([pgCtl, "-D", data, "-l", join(dir, "log"), "-o", opts, "-w", "-t", "60", "start"], "pg_ctl start");
    await startServer();
    const url = (database: string) => `postgres://${USER}@127.0.0.1:${port}/${database}`;
    return {
      port,
      dir,
      url,
      async freshDatabase(template?: string) {
        const name = `t${process.pid}_${++counter}`;
        const admin = new SQL({ url: url("postgres"), max: 1 });
        try {
          await admin.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
        } finally {
          await admin.close();
        }
        return url(name);
      },
      halt: () => run([pgCtl, "-D", data, "-m", "fast", "-w", "stop"], "pg_ctl stop"),
      resume: startServer,
      stop,
    };
  } catch (e) {
    stop();
    throw e;
  }
}
