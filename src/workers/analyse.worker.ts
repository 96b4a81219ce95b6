// Scores capture pairs off the main thread: PNG decoding and SSIM are CPU-bound and would stall
// every HTTP request and socket while a 16 000 px screenshot is decoded.
// Jobs run one at a time so at most one full-size bitmap is alive; thumbnails are cached per
// screenshot file because with N targets each screenshot takes part in N-1 pairs.

import { stat } from "node:fs/promises";
import type { Extraction } from "../modules/capture/model";
import { prepareStreaming, scorePrepared, type PreparedCapture } from "../modules/analysis/similarity";
import type { AnalyseEvent, AnalyseRequest } from "./protocol";

declare const self: Worker;

const CACHE_SIZE = 12;
const cache = new Map<string, Omit<PreparedCapture, "extraction">>();

async function prepared(path: string, extraction: Extraction): Promise<PreparedCapture> {
  const info = await stat(path);
  const key = `${path}|${info.size}|${info.mtimeMs}|${extraction.palette.dominant.length > 0 ? "x" : "m"}`;
  let hit = cache.get(key);
  if (hit) {
    cache.delete(key);
  } else {
    const { thumb, palette } = await prepareStreaming(extraction, await Bun.file(path).bytes());
    hit = { thumb, palette };
  }
  cache.set(key, hit);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return { extraction, thumb: hit.thumb, palette: extraction.palette.dominant.length > 0 ? extraction.palette.dominant : hit.palette };
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
  if (msg.type !== "score") return;
  const { job } = msg;
  queue = queue.then(async () => {
    try {
      const a = await prepared(job.aPath, job.aExtraction);
      const b = await prepared(job.bPath, job.bExtraction);
      send({ type: "scored", jobId: job.jobId, scores: scorePrepared(a, b) });
    } catch (e) {
      send({ type: "failed", jobId: job.jobId, reason: e instanceof Error ? e.message : String(e) });
    }
  });
};
