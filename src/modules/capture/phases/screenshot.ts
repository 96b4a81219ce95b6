// The capture's fourth phase: the full-page screenshot (../screenshot/screenshot.ts), capped at the
// job's height, and its PNG written where the job asked, atomically, so a reader never sees half a file.

import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { VIEWPORTS } from "../model";
import type { DomMeasurement } from "../page/types";
import { takeScreenshot } from "../screenshot/screenshot";
import type { CaptureJob, CaptureStage } from "../worker/protocol";
import type { OpenedPage } from "./open";

export interface Screenshot {
  /** CSS px of the page captured: its height, capped at the job's maximum. */
  capturedHeight: number;
  png: Buffer;
}

export async function screenshotPage(
  opened: OpenedPage,
  job: CaptureJob,
  dom: DomMeasurement,
  onStage: (stage: CaptureStage) => void,
): Promise<Screenshot> {
  onStage("screenshot");
  const viewport = VIEWPORTS[job.viewport];
  const capturedHeight = Math.max(1, Math.min(dom.pageHeight, job.maxHeightPx));
  const png = await opened.race(
    takeScreenshot(opened.context, opened.page, {
      width: viewport.width,
      height: capturedHeight,
      viewportWidth: viewport.width,
      viewportHeight: viewport.height,
      mobile: viewport.mobile,
    }),
  );
  return { capturedHeight, png };
}

export async function saveScreenshot(path: string, png: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await Bun.write(tmp, png);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
