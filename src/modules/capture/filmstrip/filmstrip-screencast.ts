// Filmstrip frames from the DevTools screencast: the fallback for a page whose browser is already
// tracing another page (tracing is browser-wide, one at a time). Each repaint is sent to us as a
// JPEG and must be acked before the next comes, which costs the page some of its paint time; the
// trace (filmstrip-trace.ts) does not, so the screencast only records what the trace cannot.
import type { CDPSession } from "playwright-core";

export interface ScreencastFrame {
  /** Wall-clock time of the repaint, ms since the epoch. */
  wallMs: number;
  data: Buffer;
  width: number;
  height: number;
}

export interface ScreencastRecording {
  /** Stops the screencast once the frames painted before `cut` (wall ms) have arrived; the last frame of each slot, in order. */
  end(cut: number): Promise<ScreencastFrame[]>;
}

export interface ScreencastLimits {
  maxWidth: number;
  maxHeight: number;
  quality: number;
  /** One frame per slot: the last repaint within it stands for the slot. */
  slotMs: number;
  maxFrames: number;
}

/** Starts the screencast on the page's session, or returns null when the page cannot give one. */
export async function startScreencast(session: CDPSession, limits: ScreencastLimits): Promise<ScreencastRecording | null> {
  const slots = new Map<number, ScreencastFrame>();
  let stopped = false;
  let lastArrival = 0;
  session.on("Page.screencastFrame", (e) => {
    lastArrival = Date.now();
    // Unacknowledged, Chromium stops sending frames.
    session.send("Page.screencastFrameAck", { sessionId: e.sessionId }).catch(() => {});
    if (stopped) return;
    const wallMs = (e.metadata.timestamp ?? Date.now() / 1000) * 1000;
    const slot = Math.floor(wallMs / limits.slotMs);
    if (!slots.has(slot) && slots.size >= limits.maxFrames) return;
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
      quality: limits.quality,
      maxWidth: limits.maxWidth,
      maxHeight: limits.maxHeight,
      everyNthFrame: 1,
    });
  } catch {
    return null;
  }
  return {
    async end(cut) {
      // A repaint reaches us ~100 ms after it happened: wait for the ones painted before the cut.
      await framesInFlight(cut, () => lastArrival);
      stopped = true;
      await session.send("Page.stopScreencast").catch(() => {});
      return [...slots.values()].sort((a, b) => a.wallMs - b.wallMs);
    },
  };
}

const SETTLE_MS = 120;
const SETTLE_LIMIT_MS = 500;

async function framesInFlight(cut: number, lastArrival: () => number) {
  const limit = cut + SETTLE_LIMIT_MS;
  while (Date.now() < limit && Date.now() - Math.max(cut, lastArrival()) < SETTLE_MS) await Bun.sleep(20);
}
