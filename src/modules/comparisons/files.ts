// Where screenshots live. Paths are built only from server-made ids and always checked to stay
// inside the screenshot root, so nothing a user sends can point the server at another file. A
// capture is written under its snapshot id, then stored under its content hash
// (screenshots/<user>/<comparison>/<sha256>.png, a key of the blob store): identical captures of a
// comparison are one object, however many runs show it. An object goes when no snapshot row names
// it any more.
//
// With the files store (the default) the capture is written in place under DATA_DIR and renamed to
// its hash, as the stored file itself. With an object store the capture is written in a working
// folder outside DATA_DIR, uploaded under its hash before its row is written (place), and its
// working copy kept until its run closes (the analyser reads it); readers fetch from the store.
import { renameSync, rmSync } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { newId } from "#server/lib/ids";
import { filmstripDirFor } from "#server/modules/capture/public";
import { filesStore, type BlobBody, type BlobStorage, type BlobStore } from "#server/modules/storage";

const STORED_PNG = /^screenshots\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\.png$/;
/** screenshots/<owner>/<comparison>: the folder a comparison's captures are stored in. */
const COMPARISON_FOLDER = /^screenshots\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+$/;
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The key a capture is stored under: its content hash in its comparison's folder. The one place
 * it is made, for the run (storedFor) and for a capture job's worker, which stores it itself.
 */
export function contentKey(folder: string, sha256: string): string {
  if (!COMPARISON_FOLDER.test(folder)) throw new Error(`not a comparison's screenshot folder: ${folder}`);
  if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
  return `${folder}/${sha256}.png`;
}

/**
 * Puts the filmstrip a capture recorded in `dir` under `keyFolder` of `store`, the manifest last (a
 * folder without one is an unfinished recording), then removes `dir`.
 */
export async function putFilmstrip(store: Pick<BlobStore, "put">, dir: string, keyFolder: string): Promise<void> {
  const names = await Array.fromAsync(new Bun.Glob("*").scan({ cwd: dir, onlyFiles: true })).catch(() => [] as string[]);
  const ordered = [...names.filter((n) => n !== "manifest.json").sort(), ...names.filter((n) => n === "manifest.json")];
  for (const name of ordered) await store.put(`${keyFolder}/${name}`, Bun.file(join(dir, name)));
  await rm(dir, { recursive: true, force: true });
}

/** Whether `key` names a stored screenshot (contentKey's shape). */
export const isScreenshotKey = (key: string): boolean => STORED_PNG.test(key);
/** screenshots/<owner>/<comparison>/filmstrips/<snapshot>/<file> */
const FILMSTRIP_KEY = /^(screenshots\/([A-Za-z0-9_-]+)\/[A-Za-z0-9_-]+\/filmstrips\/([A-Za-z0-9_-]+))\/[A-Za-z0-9._-]+$/;

export function screenshotFiles(dataDir: string, storage?: BlobStorage) {
  const store = storage?.store ?? filesStore(dataDir);
  const remote = store.kind !== "files";
  if (remote && !storage?.workDir) throw new Error("an object store needs a working folder for captures");
  // Where captures are written: DATA_DIR itself for the files store, the working folder otherwise.
  const base = resolve(remote ? storage!.workDir! : dataDir);
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
  const toStored = (absolute: string) =>
    relative(base, checked(resolve(absolute)))
      .split(sep)
      .join("/");
  /** A stored path as the store's key, refused (like toAbsolute) when it would leave the screenshot root. */
  const storedKey = (stored: string) => {
    checked(resolve(base, stored));
    return stored;
  };
  /** The folder key of the comparison a capture's path is in. */
  const folderOf = (absolute: string) => toStored(dirname(checked(resolve(absolute))));
  const storedFor = (absolute: string, sha256: string) => contentKey(folderOf(absolute), sha256);
  /** The local path of the file named by the capture's content hash. */
  const hashName = (absolute: string, sha256: string) => checked(resolve(base, storedFor(absolute, sha256)));

  // A key whose row is not written yet is pinned (an object store's upload, the files store's
  // adoption): removeUnused leaves it alone. Every pin is counted, so a removal that was asking the
  // database whether a row names its key while a capture took some key asks again. Object stores
  // only: uploads and deletes of one key run in the order they were asked for, so a delete asked
  // before an upload can never land after it.
  const pins = new Map<string, number>();
  let pinsTaken = 0;
  const queues = new Map<string, Promise<unknown>>();
  const inOrder = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => {}).then(work);
    const tail = next.catch(() => {});
    queues.set(key, tail);
    void tail.then(() => queues.get(key) === tail && queues.delete(key));
    return next;
  };
  // Deletes in flight, for idle(). One that fails (the store out of reach) leaves an object no row
  // names, which the boot sweep removes.
  const pending = new Set<Promise<void>>();
  const track = (p: Promise<unknown>) => {
    const settled: Promise<void> = p.then(
      () => {},
      () => {},
    );
    pending.add(settled);
    void settled.then(() => pending.delete(settled));
  };
  const pin = (key: string) => {
    pins.set(key, (pins.get(key) ?? 0) + 1);
    pinsTaken++;
  };
  const unpin = (key: string) => {
    const n = (pins.get(key) ?? 1) - 1;
    if (n > 0) pins.set(key, n);
    else pins.delete(key);
  };

  /** The filmstrip the capture recorded beside its screenshot, uploaded under the same folder, then removed here. */
  const placeFilmstrip = (absolute: string) => putFilmstrip(store, filmstripDirFor(absolute), toStored(filmstripDirFor(absolute)));

  return {
    root,
    /** The store holds its files apart from where captures are written (an object store). */
    remote,
    store,
    /** Absolute path for a new snapshot's PNG; its folder is created. */
    async prepare(userId: string, comparisonId: string, snapshotId: string): Promise<string> {
      const dir = comparisonDir(userId, comparisonId);
      await mkdir(dir, { recursive: true });
      return checked(join(dir, `${segment(snapshotId)}.png`));
    },
    /** What the database keeps: the path relative to the capture root (DATA_DIR), which is the store's key. */
    toStored,
    /** Back from the database to the local path (the file itself, or an object store's working copy), refusing anything outside the root. */
    toAbsolute(stored: string): string {
      return checked(resolve(base, stored));
    },
    /** The key a capture is stored under: its content hash, in its comparison's folder. */
    storedFor,
    /** The store's folder of the comparison a capture path is in: what a capture job's worker stores under (contentKey). */
    folderOf,
    /**
     * Object stores: uploads a finished capture (and its filmstrip) under its content hash, before
     * its row is written; the key stays pinned until recorded(). The files store keeps it in place.
     */
    async place(absolute: string, sha256: string): Promise<void> {
      if (!remote) return;
      const key = storedFor(absolute, sha256);
      pin(key);
      try {
        await inOrder(key, () => store.put(key, Bun.file(checked(resolve(absolute))), "image/png"));
        await placeFilmstrip(absolute);
      } catch (e) {
        unpin(key);
        throw e;
      }
    },
    /** The capture's row is written (or will not be): its key is no longer pinned (placed, or adopted). */
    recorded(stored: string): void {
      unpin(stored);
    },
    /**
     * Moves a finished capture (in its comparison's folder) to the file named by its content hash
     * and returns that path; call recorded() once its row is written or given up. The key stays
     * pinned until then, so a removal checking the database meanwhile (the row not written yet)
     * leaves the file. Renaming over an existing file of the same hash replaces equal bytes. With
     * an object store the working copy keeps its name (it is this capture's own, removed with its
     * run) and place() pinned the key.
     */
    adopt(absolute: string, sha256: string): string {
      const to = hashName(absolute, sha256);
      const from = checked(resolve(absolute));
      if (remote) return from;
      pin(toStored(to));
      if (to !== from) renameSync(from, to);
      return to;
    },
    /**
     * A capture a worker already stored under its content key (`key`, contentKey's): pinned, like
     * place(), until recorded(), and checked to be there (after any delete of it asked here
     * before), so a removal that came first is noticed instead of leaving a row without its object.
     */
    async adoptStored(key: string, sha256: string): Promise<void> {
      if (!STORED_PNG.test(storedKey(key)) || !key.endsWith(`/${sha256}.png`) || !SHA256.test(sha256))
        throw new Error(`not a stored screenshot of ${sha256}: ${key}`);
      pin(key);
      try {
        const there = await inOrder(key, () => store.stat(key));
        if (!there) throw new Error("The screenshot was lost on its way from the capture worker");
      } catch (e) {
        unpin(key);
        throw e;
      }
    },
    /** Deletes a stored file unless a snapshot still names it (or a capture is placing it); true when it was deleted. */
    async removeUnused(stored: string, inUse: (stored: string) => boolean | Promise<boolean>): Promise<boolean> {
      const key = storedKey(stored);
      for (;;) {
        if (pins.has(key)) return false;
        const taken = pinsTaken;
        if (await inUse(stored)) return false;
        // No capture took a key while the database answered: the answer still holds, and the
        // removal below runs in this same turn.
        if (pinsTaken === taken) break;
      }
      if (pins.has(key)) return false;
      if (!remote) {
        rmSync(checked(resolve(base, stored)), { force: true });
        return true;
      }
      track(inOrder(key, () => store.delete(key)));
      return true;
    },
    /** Removes a local file: a capture not kept (with, for object stores, its filmstrip's working folder). */
    async remove(absolute: string): Promise<void> {
      await rm(checked(resolve(absolute)), { force: true });
      if (remote) await rm(filmstripDirFor(checked(resolve(absolute))), { recursive: true, force: true });
    },
    /**
     * Object stores: the run is over, its working copy goes. The files store's file is the stored
     * one and stays; a capture adopted as stored (a key, not a path) has no copy here.
     */
    releaseLocal(absolute: string): void {
      if (remote && isAbsolute(absolute)) rmSync(checked(resolve(absolute)), { force: true });
    },
    async removeComparison(userId: string, comparisonId: string): Promise<void> {
      await rm(comparisonDir(userId, comparisonId), { recursive: true, force: true });
      if (remote) await store.deletePrefix(`screenshots/${segment(userId)}/${segment(comparisonId)}/`);
    },
    /** Every stored PNG, with when it was written (for the boot sweep). */
    async *storedPngs(): AsyncGenerator<{ stored: string; modifiedAt: number }> {
      for await (const b of store.list("screenshots/")) if (STORED_PNG.test(b.key)) yield { stored: b.key, modifiedAt: b.modifiedAt };
    },
    /**
     * Object stores: every stored filmstrip, by its snapshot's owner and id, with its last write
     * (for the boot sweep: a comparison deleted while the store was out of reach leaves them behind).
     */
    async storedFilmstrips(): Promise<{ prefix: string; ownerId: string; snapshotId: string; modifiedAt: number }[]> {
      const found = new Map<string, { prefix: string; ownerId: string; snapshotId: string; modifiedAt: number }>();
      if (!remote) return [];
      for await (const b of store.list("screenshots/")) {
        const m = FILMSTRIP_KEY.exec(b.key);
        if (!m) continue;
        const prefix = `${m[1]}/`;
        const seen = found.get(prefix);
        if (!seen || seen.modifiedAt < b.modifiedAt)
          found.set(prefix, { prefix, ownerId: m[2]!, snapshotId: m[3]!, modifiedAt: b.modifiedAt });
      }
      return [...found.values()];
    },
    async removeStoredFilmstrip(prefix: string): Promise<void> {
      if (!FILMSTRIP_KEY.test(`${prefix}manifest.json`)) throw new Error(`not a filmstrip: ${prefix}`);
      await store.deletePrefix(prefix);
    },
    /** For account deletion: everything a user ever captured. */
    async removeUser(userId: string): Promise<void> {
      await rm(checked(join(root, segment(userId))), { recursive: true, force: true });
      if (remote) await store.deletePrefix(`screenshots/${segment(userId)}/`);
    },
    /** A stored screenshot to stream; null when it is gone. */
    open(stored: string): Promise<BlobBody | null> {
      return store.open(storedKey(stored));
    },
    /** A stored screenshot's bytes; null when it is gone. */
    read(stored: string): Promise<Uint8Array | null> {
      return store.get(storedKey(stored));
    },
    /**
     * A local file of each stored screenshot, for work that reads files (the pixels worker): the
     * stored files themselves, or downloads to the working folder; null when one is gone.
     * Call `release` when done.
     */
    async local(stored: string[]): Promise<{ paths: string[]; release: () => Promise<void> } | null> {
      if (!remote) {
        const paths = stored.map((s) => checked(resolve(base, storedKey(s))));
        const there = await Promise.all(paths.map((p) => Bun.file(p).exists()));
        return there.every(Boolean) ? { paths, release: async () => {} } : null;
      }
      const dir = join(base, "copies");
      await mkdir(dir, { recursive: true });
      const paths = stored.map(() => join(dir, `${newId()}.png`));
      const release = async () => {
        await Promise.all(paths.map((p) => rm(p, { force: true })));
      };
      try {
        const got = await Promise.all(stored.map((s, i) => store.download(storedKey(s), paths[i]!)));
        if (got.every(Boolean)) return { paths, release };
      } catch (e) {
        await release();
        throw e;
      }
      await release();
      return null;
    },
    /** Resolves once the deletes asked for so far are done (tests, shutdown). */
    async idle(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
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
