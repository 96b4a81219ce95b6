// Pixel diffs of two full-page screenshots of one website between two runs (change detection's
// `visual` kind and its heat map), off the main thread: decoding two 16 000 px PNGs and diffing them
// takes seconds, which would stall every request and socket. One job at a time, so at most one
// pair of full-size bitmaps is alive.
import { decodePng } from "#server/lib/image/image";
import { visualDiff } from "../detect/visual";
import type { PixelsEvent, PixelsRequest } from "./protocol";

declare const self: Worker;

const load = async (path: string) => decodePng(await Bun.file(path).bytes());

let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<PixelsRequest>) => {
  const msg = event.data;
  queue = queue.then(async () => {
    let reply: PixelsEvent;
    try {
      const diff = visualDiff(await load(msg.beforePath), await load(msg.afterPath), msg.mask ?? []);
      const { heatmap, ...summary } = diff;
      reply = msg.type === "heatmap" ? { type: "heatmap", jobId: msg.jobId, png: heatmap() } : { type: "diff", jobId: msg.jobId, summary };
    } catch (e) {
      reply = { type: "failed", jobId: msg.jobId, reason: e instanceof Error ? e.message : String(e) };
    }
    if (reply.type === "heatmap") self.postMessage(reply, [reply.png.buffer as ArrayBuffer]);
    else self.postMessage(reply);
  });
};
