// A stand-in for the Chromium capture worker (src/modules/capture/worker/capture.worker.ts), for
// bench/watch-drain.bench.ts: it speaks the same protocol to the real CapturePool, but each page
// takes a fixed time and comes back as a real capture made earlier (its PNG copied to the path the
// run asked for, its extraction and thumbnail), so the queue, the runs and the history downstream
// do their real work at a scale real browsers could not reach on a 2-core machine.
import { copyFileSync } from "node:fs";
import type { GrayImage } from "#server/lib/image/image";
import type { Extraction } from "#server/modules/capture/model";
import type { CaptureEvent, CaptureJob, CaptureRequest } from "#server/modules/capture/worker/protocol";

declare const self: Worker;

export interface StandInPage {
  png: string;
  extraction: Extraction;
  thumb: GrayImage;
}

/** Sent by the bench before the pool's `init`: what each page looks like and how long it takes. */
export interface StandInSetup {
  type: "stand-in";
  captureMs: number;
  /** By `${pathname}|${viewport}` of the target URL. */
  pages: Record<string, StandInPage>;
}

export const standInKey = (url: string, viewport: string) => `${new URL(url).pathname}|${viewport}`;

let setup: StandInSetup | null = null;
const post = (event: CaptureEvent) => self.postMessage(event);

async function capture(job: CaptureJob) {
  post({ type: "stage", jobId: job.jobId, stage: "navigating" });
  await Bun.sleep(setup?.captureMs ?? 0);
  const page = setup?.pages[standInKey(job.url, job.viewport)];
  if (!page) return post({ type: "failed", jobId: job.jobId, reason: `stand-in has no page for ${job.url} (${job.viewport})` });
  post({ type: "stage", jobId: job.jobId, stage: "screenshot" });
  try {
    copyFileSync(page.png, job.screenshotPath);
  } catch (e) {
    return post({ type: "failed", jobId: job.jobId, reason: `stand-in could not write the screenshot: ${String(e)}` });
  }
  // Each answer carries its own copy of the thumbnail, as a real capture's does.
  const thumb = { ...page.thumb, data: page.thumb.data.slice() };
  post({ type: "done", jobId: job.jobId, extraction: page.extraction, screenshotPath: job.screenshotPath, thumb });
}

self.onmessage = (event: MessageEvent<CaptureRequest | StandInSetup>) => {
  const message = event.data;
  switch (message.type) {
    case "stand-in":
      setup = message;
      break;
    case "init":
      post({ type: "ready", browser: "stand-in", pid: null });
      break;
    case "capture":
      void capture(message.job);
      break;
    case "shutdown":
      process.exit(0);
  }
};
