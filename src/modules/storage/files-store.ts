// The default blob store: one file per key under DATA_DIR, at the path the key names. Writes go to
// a temporary name beside the file and are renamed over it, so a reader never sees half an object.
import { statSync } from "node:fs";
import { copyFile, mkdir, rename, rm, stat, unlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { newId } from "#server/lib/ids";
import { checkKey, checkPrefix, type BlobData, type BlobInfo, type BlobStore } from "./model";

const missing = (e: unknown) => (e as { code?: string })?.code === "ENOENT";

export function filesStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => join(base, ...checkKey(key).split("/"));

  return {
    kind: "files",
    description: `files ${base}`,

    async put(key: string, data: BlobData) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.tmp-${newId()}`;
      try {
        await Bun.write(tmp, data);
        await rename(tmp, path);
      } catch (e) {
        await rm(tmp, { force: true }).catch(() => {});
        throw e;
      }
    },

    async get(key: string) {
      return Bun.file(pathOf(key))
        .bytes()
        .catch((e) => {
          if (missing(e)) return null;
          throw e;
        });
    },

    async open(key: string) {
      const file = Bun.file(pathOf(key));
      const info = await stat(file.name!).catch((e) => {
        if (missing(e)) return null;
        throw e;
      });
      return info?.isFile() ? { body: file, size: info.size } : null;
    },

    async download(key: string, path: string) {
      return copyFile(pathOf(key), path).then(
        () => true,
        (e) => {
          if (missing(e)) return false;
          throw e;
        },
      );
    },

    async stat(key: string) {
      const info = await stat(pathOf(key)).catch((e) => {
        if (missing(e)) return null;
        throw e;
      });
      return info?.isFile() ? { key, size: info.size, modifiedAt: info.mtimeMs } : null;
    },

    async delete(key: string) {
      await unlink(pathOf(key)).catch((e) => {
        if (!missing(e)) throw e;
      });
    },

    async deletePrefix(prefix: string) {
      checkPrefix(prefix);
      if (prefix.endsWith("/")) await rm(join(base, ...prefix.slice(0, -1).split("/")), { recursive: true, force: true });
      else for await (const b of this.list(prefix)) await this.delete(b.key);
    },

    async *list(prefix: string): AsyncGenerator<BlobInfo> {
      checkPrefix(prefix);
      // Scan the deepest folder the prefix names, then keep the keys that start with it.
      const slash = prefix.lastIndexOf("/");
      const folder = slash < 0 ? "" : prefix.slice(0, slash);
      const cwd = folder ? join(base, ...folder.split("/")) : base;
      const scan = new Bun.Glob("**").scan({ cwd, onlyFiles: true, dot: true, throwErrorOnBrokenSymlink: false });
      try {
        for await (const rel of scan) {
          const key = folder ? `${folder}/${rel.split("\\").join("/")}` : rel.split("\\").join("/");
          if (!key.startsWith(prefix) || /\.tmp-[^/]*$/.test(key)) continue;
          let info;
          try {
            info = statSync(join(cwd, rel));
          } catch {
            continue; // removed while we listed
          }
          yield { key, size: info.size, modifiedAt: info.mtimeMs };
        }
      } catch (e) {
        if (!missing(e)) throw e;
      }
    },

    async probe() {
      const key = `.ready-probe-${process.pid}`;
      await this.put(key, "ready");
      await this.delete(key);
    },
  };
}
