// The timing samples a page already has from its owner's captures in the last hour (any of their
// comparisons), handed to its capture: when its own load is in line with them they stand in for
// extra timing loads (capture/timing/timing-samples.ts). Only loads a capture measured itself are handed
// on, never samples it took over from an earlier one, so no load is counted in run after run.
import { nowIso } from "#server/lib/ids";
import { EARLIER_SAMPLES_MAX_AGE_MS, MAX_SAMPLES, TIMING_PROFILES, type EarlierSample } from "#server/modules/capture/public";
import type { Viewport } from "#server/modules/capture/model";
import type { RunIO } from "../io";

/** Captures looked at, at most: a capture holds up to MAX_SAMPLES loads of its own. */
const CAPTURES = MAX_SAMPLES * 2;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export async function earlierSamples(io: RunIO, ownerId: string, url: string, viewport: Viewport): Promise<EarlierSample[]> {
  const { repo, now, log } = io.deps;
  let rows: Awaited<ReturnType<typeof repo.recentTimings>>;
  try {
    rows = await repo.recentTimings(ownerId, url, viewport, nowIso(now() - EARLIER_SAMPLES_MAX_AGE_MS), CAPTURES);
  } catch (e) {
    log("could not read earlier timing samples", e); // the capture takes its own extra loads instead
    return [];
  }
  const out: EarlierSample[] = [];
  for (const row of rows) {
    let samples: unknown;
    try {
      samples = JSON.parse(row.samples ?? "null");
    } catch {
      continue;
    }
    if (!Array.isArray(samples)) continue;
    const profile = TIMING_PROFILES.find((p) => p === row.profile) ?? "unthrottled";
    const browser = typeof row.browser === "string" ? row.browser : null;
    for (const s of samples as Record<string, unknown>[]) {
      if (!s || typeof s !== "object" || s.fromRunAt !== undefined) continue;
      out.push({
        at: row.at,
        profile,
        browser,
        sample: {
          ttfbMs: num(s.ttfbMs),
          fcpMs: num(s.fcpMs),
          lcpMs: num(s.lcpMs),
          cls: num(s.cls),
          lcpElement: typeof s.lcpElement === "string" ? s.lcpElement : null,
          // Not kept per sample: these medians come from this capture's own loads only.
          domContentLoadedMs: null,
          loadMs: null,
        },
      });
    }
  }
  return out;
}
