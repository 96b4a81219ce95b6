// Records the page loading as a WebPageTest-style filmstrip: small JPEGs of the frames Chromium
// presents, the last one of each 100 ms slot, from navigation until the capture moves on to
// measuring (load has fired and vitals are read), written beside the screenshot. The frames come
// from a trace with screenshots on, as Lighthouse records them (filmstrip-trace.ts): the capture
// reads its first LCP from this same load, and the screencast delayed it more; a page whose browser
// is already tracing another one falls back to the screencast (filmstrip-screencast.ts). A frame
// cap and writing while the capture goes on keep it cheap next to the full-page capture. Speed
// Index and visually complete are computed from every frame of the load before the slots thin them
// (load-visuals.ts), in the same background step.
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { z } from "zod";
import { startScreencast } from "./filmstrip-screencast";
import { startTrace } from "./filmstrip-trace";
import { measureLoadVisuals, notMeasured, type FrameSourceKind, type LoadVisuals } from "./load-visuals";
import { captureArea } from "../screenshot/screenshot";

export const FILMSTRIP_LIMITS = {
  /** The screencast fallback scales frames to fit this box (CSS px of the page become fewer pixels). */
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

interface TimedFrame {
  /** After the page's navigation start. */
  ms: number;
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
  /** Speed Index and visually complete of the recorded load (load-visuals.ts), once stop() has run; never throws. */
  visuals(): Promise<LoadVisuals>;
}

const nothing = (reason: string): FilmstripRecorder => ({
  stop: async () => {},
  saved: async () => null,
  visuals: async () => notMeasured(reason),
});
const NO_RECORDING = "The browser gave no way to record the load's frames";

/** Where the frames come from: given the cut and the page's time origin (wall ms), the frames up to the cut. */
interface FrameSource {
  kind: FrameSourceKind;
  frames: (cut: number, origin: number) => Promise<TimedFrame[]>;
}

/**
 * Starts recording before navigation; stop() once the page has loaded, saved() before the capture
 * ends. `mobile`: the page emulates a phone (its one-frame fallback must leave that emulation be).
 */
export async function recordFilmstrip(
  context: BrowserContext,
  page: Page,
  screenshotPath: string,
  mobile = false,
): Promise<FilmstripRecorder> {
  let session: CDPSession;
  try {
    session = await context.newCDPSession(page);
  } catch {
    return nothing(NO_RECORDING);
  }
  const source = await startSource(session, page);
  if (!source) {
    await session.detach().catch(() => {});
    return nothing(NO_RECORDING);
  }

  let result: Promise<FilmstripManifest | null> = Promise.resolve(null);
  let visuals: Promise<LoadVisuals> = Promise.resolve(notMeasured("The load's recording was not stopped"));
  return {
    async stop() {
      // Only the cut is on the capture's path; the rest happens while the capture goes on.
      const cut = Date.now();
      let measured: (v: LoadVisuals) => void = () => {};
      visuals = new Promise((resolve) => (measured = resolve));
      result = (async () => {
        let figures = notMeasured("The load's frames could not be read");
        try {
          // The cut is wall clock; the page's time origin puts it on the same axis as the frames, FCP and LCP.
          const origin = await page.evaluate(() => performance.timeOrigin).catch(() => null);
          if (origin === null) return null;
          const all = await source.frames(cut, origin);
          // Every frame of the load, not one a slot: a paint is timed to the frame that showed it.
          figures = measureLoadVisuals(loadFrames(all, cut - origin), source.kind);
          measured(figures);
          const frames = slotted(all, cut - origin);
          // Frames only come on repaints; a page painted before we listened may send none. The top
          // of the page, as it stands, is then the one frame we can show (a still, not the load:
          // it has no Speed Index).
          if (frames.length === 0) {
            const still = await pageTop(context, page, mobile, cut - origin);
            if (still) frames.push(still);
          }
          if (frames.length === 0) return null;
          return await writeFilmstrip(filmstripDirFor(screenshotPath), frames);
        } catch {
          return null;
        } finally {
          measured(figures);
          await session.detach().catch(() => {});
        }
      })();
    },
    saved: () => result,
    visuals: () => visuals,
  };
}

/** The frames of the load itself: from navigation start to the cut, in time order. */
function loadFrames(frames: TimedFrame[], cutMs: number): TimedFrame[] {
  return frames.filter((f) => f.ms >= 0 && f.ms <= cutMs && f.ms <= FILMSTRIP_LIMITS.maxMs).sort((a, b) => a.ms - b.ms);
}

async function startSource(session: CDPSession, page: Page): Promise<FrameSource | null> {
  const trace = await startTrace(session);
  if (trace) {
    return {
      kind: "trace",
      frames: async () => {
        const size = page.viewportSize();
        const frames = await trace.end();
        if (!frames || !size) return [];
        return frames.map((f) => ({ ms: f.ms, data: Buffer.from(f.data, "base64"), width: size.width, height: size.height }));
      },
    };
  }
  const screencast = await startScreencast(session, FILMSTRIP_LIMITS);
  if (!screencast) return null;
  return {
    kind: "screencast",
    frames: async (cut, origin) => (await screencast.end(cut)).map(({ wallMs, ...f }) => ({ ...f, ms: wallMs - origin })),
  };
}

/**
 * The load's frames as the filmstrip keeps them: from navigation start (anything earlier is the
 * blank tab it started from) up to the cut, the last of each slot, whole milliseconds, capped.
 */
function slotted(frames: TimedFrame[], cutMs: number): TimedFrame[] {
  const slots = new Map<number, TimedFrame>();
  for (const f of [...frames].sort((a, b) => a.ms - b.ms)) {
    if (f.ms < 0 || f.ms > cutMs || f.ms > FILMSTRIP_LIMITS.maxMs) continue;
    const slot = Math.floor(f.ms / FILMSTRIP_LIMITS.slotMs);
    if (!slots.has(slot) && slots.size >= FILMSTRIP_LIMITS.maxFrames) break;
    slots.set(slot, { ...f, ms: Math.round(f.ms) });
  }
  return [...slots.values()];
}

/**
 * The first screen of the page in document coordinates, so the capture's own scrolling does not
 * move it; taken through the page's screenshot session, which leaves a phone page's emulation as
 * it was (screenshot.ts).
 */
async function pageTop(context: BrowserContext, page: Page, mobile: boolean, ms: number): Promise<TimedFrame | null> {
  const size = page.viewportSize();
  if (!size) return null;
  const scale = Math.min(1, FILMSTRIP_LIMITS.maxWidth / size.width, FILMSTRIP_LIMITS.maxHeight / size.height);
  const area = { width: size.width, height: size.height, viewportWidth: size.width, viewportHeight: size.height, mobile };
  const data = await captureArea(context, page, area, { format: "jpeg", quality: FILMSTRIP_LIMITS.quality, scale }, true).catch(() => null);
  if (!data) return null;
  return { ms: Math.max(0, Math.round(ms)), data, width: size.width, height: size.height };
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
