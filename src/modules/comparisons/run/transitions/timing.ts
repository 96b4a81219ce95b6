// Moves of a viewport's extra timing loads. Every capture times its page with its own load; once
// all of a viewport's pages are in, the pages a timing finding could be about (close enough to
// another site, or to a poor threshold, that noise could decide it) are loaded again to measure
// their spread. A page no finding could be about keeps its one load: more would change nothing
// the run reports. Findings wait for these loads; similarity scoring does not use timing.
import { timingFindingReach } from "#server/modules/analysis/public";
import { isCaptured, laneOf, outcomesOf, type LaneKey, type RunContext } from "../context";
import { timePage } from "../effects/time-page";
import type { RunIO } from "../io";
import type { Transition } from "./types";

export const scoredEverywhere = (run: RunContext) => run.lanes.every((l) => run.scoring[l.key]!.done && run.timing[l.key]!.done);

/** Every page of this lane is in: ask for more loads of those a timing finding could be about. */
export function startTiming(run: RunContext, lane: LaneKey, io: RunIO) {
  const t = run.timing[lane]!;
  const time = io.deps.tools.time;
  // A page with steps is timed by its own load only: a timing load opens its URL without them.
  const stepsOf = (target: number) => laneOf(run, lane).pages[target]?.steps.length ?? 0;
  const pages = outcomesOf(run, lane).flatMap((o, target) => (isCaptured(o) && stepsOf(target) === 0 ? [{ o, target }] : []));
  const reach = time ? timingFindingReach(pages.map(({ o }) => o.extraction.timing)) : [];
  pages.forEach(({ o, target }, i) => {
    // A capture that timed its page itself (a throttled profile, or no deferral) has its loads already.
    const own = (o.extraction.timing.samples ?? []).filter((s) => !s.fromRunAt).length;
    if (!time || !reach[i] || own !== 1 || o.extraction.timing.profile !== "unthrottled") return;
    t.pending++;
    io.spawn(() => timePage(run, { target, lane }, o, time, io));
  });
  t.done = t.pending === 0;
}

/** The page's timing over all its loads replaces its first load's, in the run and in its stored snapshot. */
export const keepTiming: Transition<"pageTimed"> = async (run, { page, timing }, io) => {
  const t = run.timing[page.lane]!;
  t.pending--;
  t.done = t.pending === 0;
  const captured = outcomesOf(run, page.lane)[page.target];
  if (!timing || !isCaptured(captured)) return;
  const extraction = { ...captured.extraction, timing: { ...captured.extraction.timing, ...timing } };
  try {
    // False when the comparison stopped running meanwhile: nothing of this run is stored any more.
    if (captured.snapshotId && !(await io.deps.repo.setSnapshotExtraction(captured.snapshotId, run.ownerId, JSON.stringify(extraction))))
      return;
  } catch (e) {
    io.deps.log(`could not store the timing loads of ${captured.targetId} (${page.lane})`, e);
    return;
  }
  outcomesOf(run, page.lane)[page.target] = { ...captured, extraction };
};

export const checkTimed: Transition<"pageTimed"> = async (run, event, io) => {
  await keepTiming(run, event, io);
  if (scoredEverywhere(run)) io.raise({ type: "allScored" });
};
