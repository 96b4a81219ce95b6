// Everything under DATA_DIR holds password, refresh-token and API-key hashes or users' screenshots:
// only the account the server runs as may read it. New files and folders are created that way
// (here, and by the process umask set at boot); files from older versions are tightened at boot.
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_DIR = 0o700;
const GROUP_AND_OTHER = 0o077;

/** Creates the folder (and missing parents) owner-only; an existing one is left as it is. */
export function makeOwnerOnlyDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: OWNER_ONLY_DIR });
}

/** Creates an empty owner-only file unless one exists, so whatever opens it next (SQLite) keeps that mode. */
export function createOwnerOnlyFile(path: string): void {
  try {
    closeSync(openSync(path, "wx", OWNER_ONLY_FILE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
}

export interface TightenResult {
  fixed: number;
  failed: { path: string; code: string }[];
}

/**
 * Takes group and other permissions away from everything under `root` (root included). Only those
 * bits: the owner's own bits are kept, so a DATA_DIR pointed at the wrong folder loses no execute
 * bit. Symbolic links are not followed. Failures (a file owned by someone else, a read-only disk)
 * are reported, never thrown: they must not stop the server from starting.
 */
export function tightenTree(root: string): TightenResult {
  const result: TightenResult = { fixed: 0, failed: [] };
  const visit = (path: string) => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch (e) {
      result.failed.push({ path, code: (e as NodeJS.ErrnoException).code ?? String(e) });
      return;
    }
    if (stat.isSymbolicLink()) return;
    if (stat.mode & GROUP_AND_OTHER) {
      try {
        chmodSync(path, stat.mode & 0o7777 & ~GROUP_AND_OTHER);
        result.fixed++;
      } catch (e) {
        result.failed.push({ path, code: (e as NodeJS.ErrnoException).code ?? String(e) });
      }
    }
    if (!stat.isDirectory()) return;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (e) {
      result.failed.push({ path, code: (e as NodeJS.ErrnoException).code ?? String(e) });
      return;
    }
    for (const name of names) visit(join(path, name));
  };
  visit(root);
  return result;
}
