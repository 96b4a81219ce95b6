// Records the page loading as a WebPageTest-style filmstrip: the DevTools screencast sends a small
// JPEG whenever the page repaints, we keep the last one of each 100 ms slot, from navigation until
// the capture moves on to measuring (load has fired and vitals are read), and write them beside the
// screenshot. Low resolution, a frame cap and writing while the capture goes on keep it cheap next
// to the full-page capture.
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { z } from "zod";

export const FILMSTRIP_LIMITS = {
  /** The screencast scales frames to fit this box (CSS px of the page become fewer pixels). */
  maxWidth: 360,
  maxHeight: 360,
  quality: 50,
  /** One frame per slot: the last repaint within it stands for the slot. */
  slotMs: 100,
  maxFrames: 100,
  /** Repaints this long after navigation started are not the load any more (an animation loop). */
  maxMs: 20_000,
} as const;

export const filmstripManifestSchema = z.object({
  version: z.literal(1),
  /** The viewport the frames show, in CSS px (frames are scaled down to fit FILMSTRIP_LIMITS). */
  width: z.number(),
  height: z.number(),
  /** Time of each frame after navigation start, ascending; file is a name inside the folder. */
  frames: z.array(z.object({ ms: z.number(), file: z.string().regex(/^\d{3}\.jpg$/) })),
});
export type FilmstripManifest = z.infer<typeof filmstripManifestSchema>;

export const MANIFEST_FILE = "manifest.json";

/**
 * A snapshot's filmstrip folder: DATA_DIR/screenshots/<user>/<comparison>/filmstrips/<snapshot id>.
 * The capture's screenshot path is named by the snapshot id, so the worker needs no extra input,
 * and deleting a comparison's or user's screenshot folder deletes its filmstrips with it.
 */
export function filmstripDirFor(screenshotPath: string): string {
  return join(dirname(screenshotPath), "filmstrips", basename(screenshotPath, ".png"));
}

interface Frame {
  wallMs: number;
  data: Buffer;
  width: number;
  height: number;
}

export interface FilmstripRecorder {
  /**
   * Ends the recording at this moment: what the page paints from now on (our own scrolling) is not
   * part of its load. Returns at once; the frames still on their way are gathered and written in the background.
   */
  stop(): Promise<void>;
  /** The written recording, once stop() has run; never throws (a filmstrip is a nice-to-have). */
  saved(): Promise<FilmstripManifest | null>;
}

const NOTHING: FilmstripRecorder = { stop: async () => {}, saved: async () => null };

type TimedFrame = Frame & { ms: number };

/** Starts the screencast before navigation; stop() once the page has loaded, saved() before the capture ends. */
export async function recordFilmstrip(context: BrowserContext, page: Page, screenshotPath: string): Promise<FilmstripRecorder> {
  let session: CDPSession;
  try {
    session = await context.newCDPSession(page);
  } catch {
    return NOTHING;
  }
  const slots = new Map<number, Frame>();
  let firstWallMs: number | null = null;
  let stopped = false;
  let lastArrival = 0;
  session.on("Page.screencastFrame", (e) => {
    lastArrival = Date.now();
    // Unacknowledged, Chromium stops sending frames.
    session.send("Page.screencastFrameAck", { sessionId: e.sessionId }).catch(() => {});
    if (stopped) return;
    const wallMs = (e.metadata.timestamp ?? Date.now() / 1000) * 1000;
    firstWallMs ??= wallMs;
    if (wallMs - firstWallMs > FILMSTRIP_LIMITS.maxMs) return;
    const slot = Math.floor(wallMs / FILMSTRIP_LIMITS.slotMs);
    if (!slots.has(slot) && slots.size >= FILMSTRIP_LIMITS.maxFrames) return;
    slots.set(slot, {
      wallMs,
      data: Buffer.from(e.data, "base64"),
      width: Math.round(e.metadata.deviceWidth),
      height: Math.round(e.metadata.deviceHeight),
    });
  });
  try {
    await session.send("Page.enable");
    await session.send("Page.startScreencast", {
      format: "jpeg",
      quality: FILMSTRIP_LIMITS.quality,
      maxWidth: FILMSTRIP_LIMITS.maxWidth,
      maxHeight: FILMSTRIP_LIMITS.maxHeight,
      everyNthFrame: 1,
    });
  } catch {
    await session.detach().catch(() => {});
    return NOTHING;
  }

  let result: Promise<FilmstripManifest | null> = Promise.resolve(null);
  const framesUpTo = (cut: number, origin: number): TimedFrame[] =>
    [...slots.values()]
      .filter((f) => f.wallMs <= cut)
      .map((f) => ({ ...f, ms: Math.round(f.wallMs - origin) }))
      // Anything before the navigation is the blank tab it started from.
      .filter((f) => f.ms >= 0)
      .sort((a, b) => a.ms - b.ms);

  return {
    async stop() {
      // Only the cut is on the capture's path; the rest happens while the capture goes on.
      const cut = Date.now();
      result = (async () => {
        try {
          // Frame times are wall clock; the page's time origin puts them on the same axis as FCP and LCP.
          const origin = await page.evaluate(() => performance.timeOrigin).catch(() => null);
          if (origin === null) return null;
          // A repaint reaches us ~100 ms after it happened: wait for the ones painted before the cut.
          await framesInFlight(cut, () => lastArrival);
          stopped = true;
          await session.send("Page.stopScreencast").catch(() => {});
          const frames = framesUpTo(cut, origin);
          // Frames only come on repaints; a page painted before we listened may send none. The top
          // of the page, as it stands, is then the one frame we can show.
          if (frames.length === 0) {
            const still = await pageTop(session, page, cut - origin);
            if (still) frames.push(still);
          }
          if (frames.length === 0) return null;
          return await writeFilmstrip(filmstripDirFor(screenshotPath), frames);
        } catch {
          return null;
        } finally {
          await session.detach().catch(() => {});
        }
      })();
    },
    saved: () => result,
  };
}

const SETTLE_MS = 120;
const SETTLE_LIMIT_MS = 500;

async function framesInFlight(cut: number, lastArrival: () => number) {
  const limit = cut + SETTLE_LIMIT_MS;
  while (Date.now() < limit && Date.now() - Math.max(cut, lastArrival()) < SETTLE_MS) await Bun.sleep(20);
}

/** The first screen of the page in document coordinates, so the capture's own scrolling does not move it. */
async function pageTop(session: CDPSession, page: Page, ms: number): Promise<TimedFrame | null> {
  const size = page.viewportSize();
  if (!size) return null;
  const scale = Math.min(1, FILMSTRIP_LIMITS.maxWidth / size.width, FILMSTRIP_LIMITS.maxHeight / size.height);
  const shot = await session
    .send("Page.captureScreenshot", {
      format: "jpeg",
      quality: FILMSTRIP_LIMITS.quality,
      optimizeForSpeed: true,
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: size.width, height: size.height, scale },
    })
    .catch(() => null);
  if (!shot) return null;
  return {
    wallMs: Date.now(),
    ms: Math.max(0, Math.round(ms)),
    data: Buffer.from(shot.data, "base64"),
    width: size.width,
    height: size.height,
  };
}

async function writeFilmstrip(dir: string, frames: TimedFrame[]): Promise<FilmstripManifest | null> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const manifest: FilmstripManifest = {
    version: 1,
    width: frames[0]!.width,
    height: frames[0]!.height,
    frames: frames.map((f, i) => ({ ms: f.ms, file: `${String(i).padStart(3, "0")}.jpg` })),
  };
  try {
    await Promise.all(frames.map((f, i) => Bun.write(join(dir, manifest.frames[i]!.file), f.data)));
    // The manifest goes last and atomically: a folder without one is an unfinished recording.
    const tmp = join(dir, `${MANIFEST_FILE}.tmp`);
    await Bun.write(tmp, JSON.stringify(manifest));
    await rename(tmp, join(dir, MANIFEST_FILE));
    return manifest;
  } catch (e) {
    // A full disk mid-recording: leave nothing half-written behind (the capture goes on without it).
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    throw e;
  }
}
