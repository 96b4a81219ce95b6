// Scores one pair in the analyser and reports pairScored with the row to store, or pairFailed.
import type { Snapshot } from "#server/modules/capture/model";
import { newId, nowIso } from "#server/lib/ids";
import type { Lane, RunContext } from "../context";
import type { Analyser } from "../tools";
import type { RunIO } from "../io";
import { scoreTimeoutMs, withTimeout } from "./timeout";

const unit = (n: unknown): number | null => (typeof n === "number" && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : null);

export async function scorePair(
  run: RunContext,
  lane: Lane,
  [a, b]: readonly [Snapshot, Snapshot],
  analyser: Analyser,
  io: RunIO,
): Promise<void> {
  const { tools, now } = io.deps;
  const { viewport } = lane;
  try {
    const s = await withTimeout(
      Promise.resolve(analyser.scorePair(a.screenshotPath, a.extraction, b.screenshotPath, b.extraction)),
      scoreTimeoutMs(tools),
      "Scoring took too long",
    );
    const values = [unit(s.colorSimilarity), unit(s.layoutSimilarity), unit(s.contentSimilarity), unit(s.overallSimilarity)];
    if (values.some((v) => v === null)) throw new Error(`analyser returned non-numeric scores: ${JSON.stringify(s)}`);
    const components = Object.fromEntries(
      Object.entries(s.components ?? {}).filter(([, v]) => typeof v === "number" && Number.isFinite(v)),
    );
    io.dispatch({
      type: "pairScored",
      lane: lane.key,
      diff: {
        id: newId(),
        comparison_id: run.comparisonId,
        owner_id: run.ownerId,
        viewport,
        target_a_id: a.targetId,
        target_b_id: b.targetId,
        color_similarity: values[0]!,
        layout_similarity: values[1]!,
        content_similarity: values[2]!,
        overall_similarity: values[3]!,
        components: JSON.stringify(components),
        created_at: nowIso(now()),
        run_id: run.runId,
        role: lane.role,
        color_scheme: lane.colorScheme,
        page_a_id: a.pageId ?? null,
        page_b_id: b.pageId ?? null,
      },
    });
  } catch (error) {
    io.dispatch({ type: "pairFailed", lane: lane.key, pair: `${a.targetId} vs ${b.targetId}`, error });
  }
}
