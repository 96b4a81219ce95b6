// The main thread's side of the pixels worker: one worker, started on first use and not keeping
// the process alive, jobs answered by id. A worker that dies fails its jobs and is started again
// on the next one.
import { newId } from "#server/lib/ids";
import { spawnWorker } from "#server/lib/spawn-worker";
import type { Box } from "#server/modules/capture/model";
import type { PixelDiffSummary, PixelsEvent, PixelsRequest } from "./protocol";

type Pending = { resolve: (e: PixelsEvent) => void; reject: (e: Error) => void };

export function pixelsWorker() {
  let worker: Worker | null = null;
  const pending = new Map<string, Pending>();

  const failAll = (reason: string) => {
    for (const p of pending.values()) p.reject(new Error(reason));
    pending.clear();
    worker?.terminate();
    worker = null;
  };

  function started(): Worker {
    if (worker) return worker;
    const w = spawnWorker("modules/changes/worker/pixels.worker.ts");
    // Idle between runs: it must not keep a process (or a test) alive on its own.
    (w as Worker & { unref(): void }).unref();
    w.onmessage = (event: MessageEvent<PixelsEvent>) => {
      const p = pending.get(event.data.jobId);
      pending.delete(event.data.jobId);
      p?.resolve(event.data);
    };
    w.onerror = (e) => failAll(`pixel diff worker failed: ${e.message}`);
    worker = w;
    return w;
  }

  function ask(type: PixelsRequest["type"], beforePath: string, afterPath: string, mask: Box[]): Promise<PixelsEvent> {
    const jobId = newId();
    return new Promise((resolve, reject) => {
      pending.set(jobId, { resolve, reject });
      started().postMessage({ type, jobId, beforePath, afterPath, mask } satisfies PixelsRequest);
    });
  }

  const answer = <T extends PixelsEvent["type"]>(e: PixelsEvent, type: T): Extract<PixelsEvent, { type: T }> => {
    if (e.type === "failed") throw new Error(e.reason);
    if (e.type !== type) throw new Error(`pixel diff worker answered ${e.type} to ${type}`);
    return e as Extract<PixelsEvent, { type: T }>;
  };

  return {
    /** Changed share and regions of the later screenshot against the earlier one; `mask` is left out. */
    diff: async (beforePath: string, afterPath: string, mask: Box[] = []): Promise<PixelDiffSummary> =>
      answer(await ask("diff", beforePath, afterPath, mask), "diff").summary,
    /** The heat map PNG (masked parts outlined in amber). */
    heatmap: async (beforePath: string, afterPath: string, mask: Box[] = []): Promise<Uint8Array> =>
      answer(await ask("heatmap", beforePath, afterPath, mask), "heatmap").png,
    close: () => failAll("closed"),
  };
}

export type PixelsWorker = ReturnType<typeof pixelsWorker>;
