// Scores capture pairs off the main thread: PNG decoding and SSIM are CPU-bound and would stall
// every HTTP request and socket while a 16 000 px screenshot is decoded.
// Jobs run one at a time so at most one full-size bitmap is alive; thumbnails are cached per
// screenshot file because with N targets each screenshot takes part in N-1 pairs.

import { stat } from "node:fs/promises";
import type { Extraction } from "#server/modules/capture/model";
import { prepareStreaming, scorePrepared, type PreparedCapture } from "#server/modules/analysis/similarity";
import { workerLogger } from "#server/lib/logger";
import type { AnalyseEvent, AnalyseRequest } from "./protocol";

declare const self: Worker;

const logger = workerLogger("analyse");

const CACHE_SIZE = 12;
const cache = new Map<string, Omit<PreparedCapture, "extraction">>();

/** The file as it is now: a rewritten or replaced screenshot never matches an older entry. */
async function keyOf(path: string, hasPalette: boolean): Promise<string> {
  const info = await stat(path);
  return `${path}|${info.size}|${info.mtimeMs}|${hasPalette ? "x" : "m"}`;
}

function remember(key: string, entry: Omit<PreparedCapture, "extraction">) {
  cache.delete(key);
  cache.set(key, entry);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
}

async function prepared(path: string, extraction: Extraction): Promise<PreparedCapture> {
  const hasPalette = extraction.palette.dominant.length > 0;
  const key = await keyOf(path, hasPalette);
  let hit = cache.get(key);
  if (!hit) {
    const { thumb, palette } = await prepareStreaming(extraction, await Bun.file(path).bytes());
    hit = { thumb, palette };
  }
  remember(key, hit);
  return { extraction, thumb: hit.thumb, palette: hasPalette ? extraction.palette.dominant : hit.palette };
}

function send(event: AnalyseEvent) {
  self.postMessage(event);
}

let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<AnalyseRequest>) => {
  const msg = event.data;
  if (msg.type === "shutdown") {
    process.exit(0);
  }
  if (msg.type === "prime") {
    const { path, thumb, palette } = msg;
    // In the same queue as scoring, so a score sent after this prime finds it.
    queue = queue.then(async () => {
      try {
        remember(await keyOf(path, palette.length > 0), { thumb, palette });
      } catch {
        // The file is gone already (run cancelled): nothing to score, nothing to keep.
      }
    });
    return;
  }
  if (msg.type !== "score") return;
  const { job } = msg;
  queue = queue.then(async () => {
    try {
      const a = await prepared(job.aPath, job.aExtraction);
      const b = await prepared(job.bPath, job.bExtraction);
      send({ type: "scored", jobId: job.jobId, scores: scorePrepared(a, b) });
    } catch (e) {
      logger.warn({ jobId: job.jobId, err: e }, "scoring failed");
      send({ type: "failed", jobId: job.jobId, reason: e instanceof Error ? e.message : String(e) });
    }
  });
};
