// Every worker starts here. Each module keeps its *.worker.ts beside the code that talks to it;
// every such file is also an entrypoint of the compiled binary (scripts/build-binary.ts finds them
// all under src/), which is how `bun build --compile` embeds workers.

/**
 * Inside the executable all code runs from the main entry at the root of Bun's virtual file system,
 * and each worker entry sits under its path relative to src/ (e.g. modules/capture/worker/capture.worker.js),
 * so the worker is named from that root. From source, the same path is resolved against src/.
 */
const compiled = import.meta.url.includes("/$bunfs/") || import.meta.url.includes("~BUN");

/** `file`: the worker's path under src/, e.g. "modules/capture/worker/capture.worker.ts". */
export function spawnWorker(file: `${string}.worker.ts`): Worker {
  if (compiled) return new Worker(`./${file}`);
  return new Worker(new URL(`../${file}`, import.meta.url));
}
