// A worker's local copies of stored screenshots, for scoring pairs (the analyser reads files). Keys
// are content-addressed, so a copy never goes stale: one screenshot takes part in a lane's every
// pair and is fetched once while it is in use. A capture this worker made is kept as it was stored
// (seed), so scoring its pairs here fetches nothing. The oldest copies no pair holds are removed.
import { mkdirSync, rmSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { randomToken } from "#server/lib/ids";
import type { BlobStore } from "#server/modules/storage";

/** Copies kept at most (beyond those in use): a comparison's lane has up to 20 sites. */
const KEEP = 24;

export interface StoredCopy {
  path: string;
  release(): void;
}

export interface StoredCopies {
  /** A local file of the stored object `key`, fetched unless kept; null when the store has none. Release it when done. */
  hold(key: string): Promise<StoredCopy | null>;
  /** Keeps `file` (moved here) as the copy of `key`, which it was just stored as; resolves with its path here. */
  seed(key: string, file: string): Promise<string>;
}

interface Entry {
  path: string;
  ready: Promise<boolean>;
  users: number;
}

export function storedCopies(store: BlobStore, dir: string, keep = KEEP): StoredCopies {
  mkdirSync(dir, { recursive: true });
  // In use order, oldest first: a hit moves its entry to the end.
  const entries = new Map<string, Entry>();
  // The object's own name (<sha256>.png): the same bytes whichever comparison's folder holds them.
  const nameOf = (key: string) => {
    const name = basename(key);
    if (!/^[0-9a-f]{64}\.png$/.test(name)) throw new Error(`not a stored screenshot: ${key}`);
    return name;
  };
  const trim = () => {
    for (const [name, e] of entries) {
      if (entries.size <= keep) break;
      if (e.users > 0) continue;
      entries.delete(name);
      rmSync(e.path, { force: true });
    }
  };
  const touch = (name: string, e: Entry) => {
    entries.delete(name);
    entries.set(name, e);
  };

  return {
    async hold(key) {
      const name = nameOf(key);
      let e = entries.get(name);
      if (!e) {
        const path = join(dir, name);
        const part = join(dir, `${randomToken(8)}.part`);
        // Downloaded beside and renamed: a reader never sees half a file.
        const ready = store.download(key, part).then(
          async (got) => {
            if (got) await rename(part, path);
            else await rm(part, { force: true });
            return got;
          },
          async (err: unknown) => {
            await rm(part, { force: true });
            throw err;
          },
        );
        e = { path, ready, users: 0 };
        void ready.catch(() => {});
      }
      touch(name, e);
      e.users++;
      const entry = e;
      const release = () => {
        entry.users--;
        trim();
      };
      try {
        if (await entry.ready) return { path: entry.path, release };
      } catch (err) {
        release();
        if (entries.get(name) === entry) entries.delete(name);
        throw err;
      }
      release();
      if (entries.get(name) === entry) entries.delete(name);
      return null;
    },
    async seed(key, file) {
      const name = nameOf(key);
      const path = join(dir, name);
      const had = entries.get(name);
      if (had) {
        await rm(file, { force: true });
        touch(name, had);
      } else {
        await rename(file, path);
        entries.set(name, { path, ready: Promise.resolve(true), users: 0 });
      }
      trim();
      return path;
    },
  };
}
