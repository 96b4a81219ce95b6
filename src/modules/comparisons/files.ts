// Where screenshots live on disk. Paths are built only from server-made ids and always checked to
// stay inside DATA_DIR/screenshots, so nothing a user sends can point the server at another file.
// A capture is written under its snapshot id, then renamed to its content hash in the same folder
// (DATA_DIR/screenshots/<user>/<comparison>/<sha256>.png): identical captures of a comparison are
// one file, however many runs show it. A file goes when no snapshot row names it any more.
import { renameSync, rmSync } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

export function screenshotFiles(dataDir: string) {
  const base = resolve(dataDir);
  const root = join(base, "screenshots");

  const inside = (path: string) => {
    const rel = relative(root, path);
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  };
  const checked = (path: string) => {
    if (!inside(path)) throw new Error(`screenshot path escapes the screenshot root: ${path}`);
    return path;
  };
  const segment = (id: string) => {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`unsafe path segment: ${id}`);
    return id;
  };
  const comparisonDir = (userId: string, comparisonId: string) => checked(join(root, segment(userId), segment(comparisonId)));

  return {
    root,
    /** Absolute path for a new snapshot's PNG; its folder is created. */
    async prepare(userId: string, comparisonId: string, snapshotId: string): Promise<string> {
      const dir = comparisonDir(userId, comparisonId);
      await mkdir(dir, { recursive: true });
      return checked(join(dir, `${segment(snapshotId)}.png`));
    },
    /** What the database keeps: the path relative to DATA_DIR. */
    toStored(absolute: string): string {
      return relative(base, checked(resolve(absolute)))
        .split(sep)
        .join("/");
    },
    /** Back from the database to an absolute path, refusing anything outside the root. */
    toAbsolute(stored: string): string {
      return checked(resolve(base, stored));
    },
    /**
     * Moves a finished capture (in its comparison's folder) to the file named by its content hash
     * and returns that path. Synchronous, like removeUnused: bun:sqlite writes are too, so a
     * rename and the row that names the file happen in one turn, and a removal can never slip in
     * between them. Renaming over an existing file of the same hash replaces equal bytes.
     */
    adopt(absolute: string, sha256: string): string {
      if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
      const from = checked(resolve(absolute));
      const to = checked(join(dirname(from), `${sha256}.png`));
      if (to !== from) renameSync(from, to);
      return to;
    },
    /** Deletes a stored file unless a snapshot still names it; true when it was deleted. */
    removeUnused(stored: string, inUse: (stored: string) => boolean): boolean {
      if (inUse(stored)) return false;
      rmSync(checked(resolve(base, stored)), { force: true });
      return true;
    },
    async remove(absolute: string): Promise<void> {
      await rm(checked(resolve(absolute)), { force: true });
    },
    async removeComparison(userId: string, comparisonId: string): Promise<void> {
      await rm(comparisonDir(userId, comparisonId), { recursive: true, force: true });
    },
    /** Every PNG under the root, as stored paths (for the boot sweep). */
    async *storedPngs(): AsyncGenerator<string> {
      const glob = new Bun.Glob("*/*/*.png");
      for await (const rel of glob.scan({ cwd: root, onlyFiles: true })) yield relative(base, join(root, rel)).split(sep).join("/");
    },
    /** For account deletion: everything a user ever captured. */
    async removeUser(userId: string): Promise<void> {
      await rm(checked(join(root, segment(userId))), { recursive: true, force: true });
    },
  };
}

export type ScreenshotFiles = ReturnType<typeof screenshotFiles>;

/** sha256 of a file's bytes, hex. */
export async function fileSha256(path: string): Promise<{ sha256: string; bytes: number }> {
  const hasher = new Bun.CryptoHasher("sha256");
  let bytes = 0;
  for await (const chunk of Bun.file(path).stream()) {
    hasher.update(chunk);
    bytes += chunk.byteLength;
  }
  return { sha256: hasher.digest("hex"), bytes };
}

/** Pixel size from the PNG header (IHDR), so the API reports what was really captured. */
export async function pngSize(path: string): Promise<{ width: number; height: number } | null> {
  const fh = await open(path, "r").catch(() => null);
  if (!fh) return null;
  try {
    const buf = Buffer.alloc(24);
    const { bytesRead } = await fh.read(buf, 0, 24, 0);
    if (bytesRead < 24 || buf.readUInt32BE(0) !== 0x89504e47 || buf.toString("ascii", 12, 16) !== "IHDR") return null;
    return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  } finally {
    await fh.close();
  }
}
