// Every worker starts here. Each *.worker.ts file is also an entrypoint of the compiled binary
// (scripts/build-binary.ts), which is how `bun build --compile` embeds workers.
export type WorkerName = "capture" | "analyse" | "agents" | "pixels";

/**
 * Inside the executable all code runs from the main entry at the root of Bun's virtual file system,
 * and each worker entry sits under its path relative to src/ (e.g. workers/capture.worker.js), so
 * the worker is named from that root. From source, it sits beside this file.
 */
const compiled = import.meta.url.includes("/$bunfs/") || import.meta.url.includes("~BUN");

export function spawnWorker(name: WorkerName): Worker {
  if (compiled) return new Worker(`./workers/${name}.worker.ts`);
  return new Worker(new URL(`./${name}.worker.ts`, import.meta.url));
}
