// Filmstrip frames from a Chromium trace, as Lighthouse and WebPageTest take them: with the
// "disabled-by-default-devtools.screenshot" category on, the compositor keeps a small JPEG of each
// frame it presents, in the trace, on its own thread. Unlike the DevTools screencast nothing waits
// for us per frame (no round trip, no ack, no frame sent over the pipe while the page loads), which
// delayed the LCP of the load it recorded more (bench/filmstrip.bench.ts); and the page loads under
// the same conditions as Lighthouse's, whose LCP ours is checked against. The screenshots are the
// tracing page's only (Chromium 156: another tab painting meanwhile left none in the trace).
import type { CDPSession } from "playwright-core";

const SCREENSHOTS = "disabled-by-default-devtools.screenshot";
/** Only for navigationStart, the trace's time origin of each load; a few events per navigation. */
const NAVIGATION = "blink.user_timing";

/** A frame as the trace has it: ms after the page's navigation start, base64 JPEG. */
export interface TraceFrame {
  ms: number;
  data: string;
}

interface TraceEvent {
  name: string;
  ts: number;
  args?: {
    snapshot?: string;
    frame?: string;
    data?: { navigationId?: string; isOutermostMainFrame?: boolean };
  };
}

export interface TraceRecording {
  /** Ends the trace; resolves to the screenshots taken after the page's navigation started, in order, or null without one. */
  end(): Promise<TraceFrame[] | null>;
}

/**
 * Starts the trace on the page's session, or returns null when the browser cannot give us one:
 * tracing is browser-wide and one at a time, so a second page recorded in the same browser at once
 * gets null here (and records its filmstrip some other way).
 */
export async function startTrace(session: CDPSession): Promise<TraceRecording | null> {
  try {
    await session.send("Tracing.start", {
      transferMode: "ReturnAsStream",
      streamFormat: "json",
      traceConfig: { includedCategories: [SCREENSHOTS, NAVIGATION], excludedCategories: ["*"] },
    });
  } catch {
    return null;
  }
  return {
    async end() {
      // The main frame's current document: its navigationStart is the time origin of the frames.
      const tree = await session.send("Page.getFrameTree").catch(() => null);
      const events = await endAndRead(session);
      if (!tree || !events) return null;
      const { id: frameId, loaderId } = tree.frameTree.frame;
      const starts = events.filter((e) => e.name === "navigationStart" && e.args?.frame === frameId);
      const start = starts.find((e) => e.args?.data?.navigationId === loaderId) ?? starts.at(-1);
      if (!start) return null;
      return events
        .filter((e) => e.name === "Screenshot" && typeof e.args?.snapshot === "string" && e.ts >= start.ts)
        .sort((a, b) => a.ts - b.ts)
        .map((e) => ({ ms: (e.ts - start.ts) / 1000, data: e.args!.snapshot! }));
    },
  };
}

async function endAndRead(session: CDPSession): Promise<TraceEvent[] | null> {
  const complete = new Promise<{ stream?: string }>((resolve) => session.once("Tracing.tracingComplete", resolve));
  // A closed page ends the trace with its session: there is nothing to read then.
  const ended = await session.send("Tracing.end").then(
    () => true,
    () => false,
  );
  if (!ended) return null;
  const { stream } = await complete;
  if (!stream) return null;
  const chunks: string[] = [];
  try {
    for (;;) {
      const chunk = await session.send("IO.read", { handle: stream, size: 1 << 20 });
      chunks.push(chunk.base64Encoded ? Buffer.from(chunk.data, "base64").toString("utf8") : chunk.data);
      if (chunk.eof) break;
    }
  } finally {
    await session.send("IO.close", { handle: stream }).catch(() => {});
  }
  const parsed = JSON.parse(chunks.join("")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}
