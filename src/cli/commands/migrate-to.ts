// `design-intel migrate-to --database postgres://… [--storage s3://bucket/prefix]`: moves an
// embedded install (DATA_DIR's SQLite file and files) onto PostgreSQL and an object store, so the
// same data serves a deployment of several instances (docs/scaling.md).
import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { closeDatabase, openDatabase } from "#server/db/connection";
import { migrate } from "#server/db/migrate";
import { copySqliteToPostgres } from "#server/db/sql/copy";
import { databaseTarget, migrateSql, openSql, type SqlDb, sqliteSql } from "#server/db/sql";
import { filesStore, storageFor, storageProblem, storageUrl, type BlobStore } from "#server/modules/storage";
import { CommandError, commandEnv, parseFlags, required, UsageError } from "../args";

export const MIGRATE_TO_HELP = `Usage: design-intel migrate-to --database postgres://USER:PASS@HOST/DB [--storage s3://BUCKET/PREFIX]

Copies this install's data into PostgreSQL (and, with --storage, its screenshots, filmstrips and
backups into an S3-compatible bucket), for a deployment of several instances (docs/scaling.md).
Stop the server first: what it writes during the copy is not copied.

  --database URL   A new, empty PostgreSQL 15+ database (migrated here; one with accounts is refused)
  --storage URL    The bucket and prefix for files (it must exist); left out, files stay in DATA_DIR

The source is DATA_DIR (default ./data). With --storage: S3_ENDPOINT, S3_REGION,
AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, as the server reads them. The copy of the database
is one transaction: it is all there or not at all; files are copied after it, and a second run
with the same --storage copies what is missing again.`;

const FILE_PREFIXES = ["screenshots/", "backups/"];

export async function migrateToCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const flags = parseFlags("migrate-to", argv, { database: { type: "string" }, storage: { type: "string" } });
  if (flags.help) return (out(MIGRATE_TO_HELP), 0);
  const url = required("migrate-to", "--database", flags.database);
  let target;
  try {
    target = databaseTarget(url, ".");
  } catch (e) {
    throw new UsageError(`migrate-to: --database: ${(e as Error).message.replace(/^DATABASE_URL: /, "")}`);
  }
  if (target.kind !== "postgres") throw new UsageError("migrate-to: --database must be a postgres:// URL");
  const bucket = flags.storage === undefined ? undefined : storageUrl.safeParse(flags.storage);
  if (bucket && !bucket.success) throw new UsageError(`migrate-to: --storage ${bucket.error.issues[0]?.message ?? "is not valid"}`);

  const env = commandEnv();
  const dataDir = resolve(env.DATA_DIR);
  const source = join(dataDir, "design-intel.db");
  if (!existsSync(source)) throw new CommandError(`migrate-to: no database at ${source} (is DATA_DIR set?)`);

  // The bucket is checked before anything is copied, so a wrong credential fails in one line and fast.
  const storage = bucket?.success ? storageFor({ ...env, DATA_DIR: dataDir, STORAGE_URL: bucket.data }) : null;
  try {
    if (storage) {
      const problem = await storageProblem({ ...env, DATA_DIR: dataDir, STORAGE_URL: bucket!.data! }, storage.store);
      if (problem) throw new CommandError(`migrate-to: ${problem}`);
    }
    const sqlite = openDatabase(source);
    let pg: SqlDb | null = null;
    try {
      // Both at this build's schema, so every table and column has its twin.
      migrate(sqlite);
      try {
        pg = await openSql(target, { max: 2 });
        await migrateSql(pg);
      } catch (e) {
        throw new CommandError(`migrate-to: ${(e as Error).message.replace(/^DATABASE_URL: /, "")}`);
      }
      out(`copying ${source} into ${pg.detail} at ${target.where}`);
      const copies = await copySqliteToPostgres(sqliteSql(sqlite), pg).catch((e: unknown) => {
        throw new CommandError(`migrate-to: nothing was copied: ${(e as Error).message}`);
      });
      const rows = copies.reduce((n, c) => n + c.rows, 0);
      out(`database: ${rows} rows in ${copies.filter((c) => c.rows > 0).length} tables copied and counted back`);
    } finally {
      await pg?.close();
      closeDatabase(sqlite);
    }
    if (storage) {
      const { count, bytes } = await copyFiles(filesStore(dataDir), storage.store);
      out(`files: ${count} copied to ${storage.store.description} (${(bytes / 1e6).toFixed(1)} MB)`);
    }
  } finally {
    if (storage?.workDir) rmSync(storage.workDir, { recursive: true, force: true });
  }
  out(
    [
      "done. Start every instance with:",
      `  DATABASE_URL=<the --database URL>${storage ? ` STORAGE_URL=${flags.storage}` : ""}`,
      `  JWT_SECRET=<the contents of ${join(dataDir, ".jwt-secret")}, or a new one: everyone signs in again>`,
      `  SECRETS_KEY=<the contents of ${join(dataDir, "secrets.key")}, if it exists: the sites' saved secrets are encrypted with it>`,
    ].join("\n"),
  );
  return 0;
}

/** Every screenshot, filmstrip and backup, under the same keys; the size of each is checked once written. */
async function copyFiles(from: BlobStore, to: BlobStore): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  for (const prefix of FILE_PREFIXES)
    for await (const blob of from.list(prefix)) {
      const data = await from.get(blob.key);
      if (!data) continue; // removed since it was listed
      await to.put(blob.key, data);
      const stat = await to.stat(blob.key);
      if (stat?.size !== data.byteLength) throw new CommandError(`migrate-to: ${blob.key} did not arrive whole in ${to.description}`);
      count++;
      bytes += data.byteLength;
    }
  return { count, bytes };
}
