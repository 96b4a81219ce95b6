// axe-core's browser build, as text. From source it is read from node_modules on first use, once per
// process; scripts/build-binary.ts replaces this module with one returning the text read at build
// time, so the executable needs no node_modules beside it.

let read: Promise<string> | null = null;

export function axeSource(): Promise<string> {
  if (!read) {
    read = Bun.file(Bun.resolveSync("axe-core/axe.min.js", import.meta.dir)).text();
    read.catch(() => (read = null));
  }
  return read;
}
