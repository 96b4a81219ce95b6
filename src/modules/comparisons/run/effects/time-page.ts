// Asks for more timing loads of one captured page and reports pageTimed, with null when they
// failed (the page keeps its first load's figures, which is what it has measured).
import { laneOf, type PageKey, type RunContext } from "../context";
import type { Snapshot } from "#server/modules/capture/model";
import type { TimeFn } from "../tools";
import type { RunIO } from "../io";
import { captureTimeoutMs, withTimeout } from "./timeout";

export async function timePage(run: RunContext, page: PageKey, snapshot: Snapshot, time: TimeFn, io: RunIO) {
  const { timing } = snapshot.extraction;
  const { viewport, colorScheme } = laneOf(run, page.lane);
  try {
    const result = await withTimeout(
      time(run.ownerId, {
        url: snapshot.extraction.finalUrl || snapshot.url,
        viewport,
        ...(colorScheme === "light" ? {} : { colorScheme }),
        profile: timing.profile ?? "unthrottled",
        own: [
          {
            ttfbMs: timing.ttfbMs,
            fcpMs: timing.fcpMs,
            lcpMs: timing.lcpMs,
            cls: timing.cls,
            domContentLoadedMs: timing.domContentLoadedMs,
            loadMs: timing.loadMs,
            lcpElement: timing.lcpElement ?? null,
          },
        ],
        earlier: snapshot.earlierSamples ?? [],
      }),
      captureTimeoutMs(io.deps.tools),
      "The page's timing loads took too long",
    );
    if (!result.ok) io.deps.log(`timing loads of ${snapshot.targetId} (${page.lane}) failed: ${result.reason}`);
    io.dispatch({ type: "pageTimed", page, timing: result.ok ? result.timing : null });
  } catch (e) {
    io.deps.log(`timing loads of ${snapshot.targetId} (${page.lane}) failed`, e);
    io.dispatch({ type: "pageTimed", page, timing: null });
  }
}
