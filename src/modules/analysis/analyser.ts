// Main-thread handle on the analyse worker. The worker is started on first use, restarted after a
// crash or a stuck job, and unref'd while idle so it never keeps the process alive on its own.

import { newId } from "#server/lib/ids";
import type { AnalyseEvent, AnalyseRequest } from "./worker/protocol";
import { spawnWorker } from "#server/lib/spawn-worker";
import type { Extraction, PaletteEntry } from "#server/modules/capture/model";
import type { GrayImage } from "#server/lib/image/image";
import type { PairScores } from "./similarity";

export interface Analyser {
  scorePair(aPath: string, aExtraction: Extraction, bPath: string, bExtraction: Extraction): Promise<PairScores>;
  /** A capture's thumbnail and screenshot palette for `path`, so a later scorePair needn't decode it. */
  prime(path: string, thumb: GrayImage, palette: PaletteEntry[]): void;
  close(): void;
  /**
   * Pairs of one lane it may be given at once; one when absent. The in-process analyser scores one
   * pair at a time in its worker; pair jobs are scored by as many workers as are free.
   */
  readonly concurrency?: number;
}

export interface AnalyserOptions {
  /** A job that takes longer than this kills the worker (a 16 000 px pair takes well under 5 s). */
  jobTimeoutMs?: number;
  /** For tests: how to start the worker. */
  spawn?: () => Worker;
}

interface Pending {
  resolve: (scores: PairScores) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export function createAnalyser(options: AnalyserOptions = {}): Analyser {
  const jobTimeoutMs = options.jobTimeoutMs ?? 60_000;
  const spawn = options.spawn ?? (() => spawnWorker("modules/analysis/worker/analyse.worker.ts"));
  const pending = new Map<string, Pending>();
  let worker: Worker | null = null;
  let closed = false;

  function failAll(reason: string) {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.reject(new Error(reason));
      pending.delete(id);
    }
  }

  function stop(reason: string) {
    const w = worker;
    worker = null;
    failAll(reason);
    w?.terminate();
  }

  function settleRef() {
    // Bun's Worker has ref/unref like a timer; the DOM typings in scope don't know them.
    const w = worker as (Worker & { ref(): void; unref(): void }) | null;
    if (!w) return;
    if (pending.size > 0) w.ref();
    else w.unref();
  }

  function ensureWorker(): Worker {
    if (worker) return worker;
    const w = spawn();
    w.onmessage = (event: MessageEvent<AnalyseEvent>) => {
      const msg = event.data;
      const p = pending.get(msg.jobId);
      if (!p) return;
      pending.delete(msg.jobId);
      clearTimeout(p.timer);
      if (msg.type === "scored") p.resolve(msg.scores);
      else p.reject(new Error(msg.reason));
      settleRef();
    };
    w.onerror = (event) => {
      if (worker === w) stop(`analyse worker crashed: ${event.message}`);
    };
    w.addEventListener("close", () => {
      if (worker === w) stop("analyse worker exited");
    });
    worker = w;
    return w;
  }

  return {
    scorePair(aPath, aExtraction, bPath, bExtraction) {
      if (closed) return Promise.reject(new Error("analyser is closed"));
      const w = ensureWorker();
      const jobId = newId();
      return new Promise<PairScores>((resolve, reject) => {
        const timer = setTimeout(() => {
          // A worker stuck on one job would hold every later job too: restart it.
          if (worker === w) stop("scoring took too long");
        }, jobTimeoutMs);
        pending.set(jobId, { resolve, reject, timer });
        settleRef();
        const request: AnalyseRequest = { type: "score", job: { jobId, aPath, aExtraction, bPath, bExtraction } };
        w.postMessage(request);
      });
    },
    prime(path, thumb, palette) {
      if (closed) return;
      const request: AnalyseRequest = { type: "prime", path, thumb, palette };
      // Transferred, not copied: the caller has no further use for it.
      ensureWorker().postMessage(request, [thumb.data.buffer]);
      settleRef();
    },
    close() {
      if (closed) return;
      closed = true;
      if (worker) {
        const request: AnalyseRequest = { type: "shutdown" };
        worker.postMessage(request);
      }
      stop("analyser is closed");
    },
  };
}
