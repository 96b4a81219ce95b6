// Every worker starts here. Each file named below is also an entrypoint of the compiled binary
// (scripts/build-binary.ts), which is how `bun build --compile` embeds workers.
export type WorkerName = "capture" | "analyse" | "agents";

export function spawnWorker(name: WorkerName): Worker {
  switch (name) {
    case "capture":
      return new Worker(new URL("./capture.worker.ts", import.meta.url));
    case "analyse":
      return new Worker(new URL("./analyse.worker.ts", import.meta.url));
    case "agents":
      return new Worker(new URL("./agents.worker.ts", import.meta.url));
  }
}
