// `design-intel backup --out FILE`: the admin console's verified copy (VACUUM INTO, integrity
// check, fsync, atomic rename) written where the operator says, safe while the server runs.
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { openDatabase, closeDatabase } from "#server/db/connection";
import { sqliteSql } from "#server/db/sql";
import { newId } from "#server/lib/ids";
import { writeVerifiedCopy } from "#server/modules/admin/backups";
import { adminRepository } from "#server/modules/admin/repository";
import { CommandError, commandEnv, parseFlags, required } from "../args";

export const BACKUP_HELP = `Usage: design-intel backup --out FILE

Writes a consistent, integrity-checked copy of DATA_DIR's database to FILE (owner-only),
safe while the server runs. FILE must not exist yet.

Environment: DATA_DIR (default ./data).`;

export async function backupCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const flags = parseFlags("backup", argv, { out: { type: "string" } });
  if (flags.help) return (out(BACKUP_HELP), 0);
  const dest = resolve(required("backup", "--out", flags.out));
  const env = commandEnv();
  process.umask(0o077);
  const source = join(resolve(env.DATA_DIR), "design-intel.db");
  if (!existsSync(source)) throw new CommandError(`backup: no database at ${source} (is DATA_DIR set?)`);
  if (existsSync(dest)) throw new CommandError(`backup: ${dest} already exists; choose a new --out path`);
  if (!existsSync(dirname(dest))) throw new CommandError(`backup: the folder ${dirname(dest)} does not exist`);
  const db = openDatabase(source);
  try {
    await writeVerifiedCopy(adminRepository(sqliteSql(db)).vacuumInto, join(dirname(dest), `.${basename(dest)}.${newId()}.tmp`), dest);
  } catch (e) {
    throw new CommandError(`backup: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    closeDatabase(db);
  }
  out(`backup written to ${dest} (integrity check ok)`);
  return 0;
}
