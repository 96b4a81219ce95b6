// Asks for more timing loads of one captured page and reports pageTimed, with null when they
// failed (the page keeps its first load's figures, which is what it has measured).
import type { PageRef, RunContext } from "../context";
import type { CapturedPage, TimeFn } from "../engine";
import type { RunIO } from "../io";
import { captureTimeoutMs, withTimeout } from "./timeout";

export async function timePage(run: RunContext, page: PageRef, captured: CapturedPage, time: TimeFn, io: RunIO) {
  const { timing } = captured.extraction;
  try {
    const result = await withTimeout(
      time(run.ownerId, {
        url: captured.extraction.finalUrl || captured.url,
        viewport: page.viewport,
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
        earlier: captured.earlierSamples ?? [],
      }),
      captureTimeoutMs(io.deps.engine),
      "The page's timing loads took too long",
    );
    if (!result.ok) io.deps.log(`timing loads of ${captured.targetId} (${page.viewport}) failed: ${result.reason}`);
    io.dispatch({ type: "pageTimed", page, timing: result.ok ? result.timing : null });
  } catch (e) {
    io.deps.log(`timing loads of ${captured.targetId} (${page.viewport}) failed`, e);
    io.dispatch({ type: "pageTimed", page, timing: null });
  }
}
