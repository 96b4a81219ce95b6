// Moves of scoring and findings. Each lane's pairs (the pages of one role of two sites, at one
// viewport in one colour scheme) are handed to the analyser in order, as many at once as it takes
// (one for the in-process analyser, several for pair jobs), each report starting the next, so a run
// that ended stops at the next pair: the table drops the report.
import { newId } from "#server/lib/ids";
import type { Finding } from "#server/modules/capture/model";
import type { FindingRow } from "../../repository";
import { groupsOf, isCaptured, laneOf, outcomesOf, snapshotsOf, type LaneKey, type RunContext } from "../context";
import { findFindings } from "../effects/findings";
import { scorePair } from "../effects/score-pair";
import { setStage, type RunIO } from "../io";
import { scoredEverywhere } from "./timing";
import type { Transition } from "./types";

/** Every page of this lane is in: pair the captured ones in target order and start scoring them. */
export async function startScoring(run: RunContext, lane: LaneKey, io: RunIO) {
  const s = run.scoring[lane]!;
  if (io.deps.tools.analyser) {
    const pages = outcomesOf(run, lane).filter(isCaptured);
    for (let i = 0; i < pages.length; i++) for (let j = i + 1; j < pages.length; j++) s.pairs.push([pages[i]!, pages[j]!]);
  }
  await scoreNext(run, lane, io);
}

/** How the stage names a lane: its viewport, with the role and scheme when they are not home and light. */
const laneLabel = (run: RunContext, key: LaneKey) => {
  const lane = laneOf(run, key);
  return [lane.role === "home" ? null : lane.role, lane.viewport, lane.colorScheme === "light" ? null : lane.colorScheme]
    .filter(Boolean)
    .join(", ");
};

async function scoreNext(run: RunContext, lane: LaneKey, io: RunIO) {
  const s = run.scoring[lane]!;
  const analyser = io.deps.tools.analyser;
  if (!analyser || (s.next >= s.pairs.length && s.inFlight === 0)) {
    io.raise({ type: "viewportScored", lane });
    return;
  }
  const limit = Math.max(1, analyser.concurrency ?? 1);
  while (s.inFlight < limit && s.next < s.pairs.length) {
    const pair = s.pairs[s.next++]!;
    s.inFlight++;
    await setStage(io, run, `Scoring ${pair[0].label} vs ${pair[1].label} (${laneLabel(run, lane)})`);
    io.spawn(() => scorePair(run, laneOf(run, lane), pair, analyser, io));
  }
}

export const keepScore: Transition<"pairScored"> = async (run, { lane, diff }, io) => {
  const s = run.scoring[lane]!;
  s.inFlight--;
  s.diffs.push(diff);
  await scoreNext(run, lane, io);
};

export const skipPair: Transition<"pairFailed"> = async (run, { lane, pair, error }, io) => {
  io.deps.log(`scoring ${pair} (${laneLabel(run, lane)}) failed`, error);
  run.scoring[lane]!.inFlight--;
  await scoreNext(run, lane, io);
};

/** While pages are still coming in, a lane's scoring finishing is only noted. */
export const markScored: Transition<"viewportScored"> = (run, { lane }) => {
  run.scoring[lane]!.done = true;
};

export const checkScored: Transition<"viewportScored"> = (run, { lane }, io) => {
  run.scoring[lane]!.done = true;
  if (scoredEverywhere(run)) io.raise({ type: "allScored" });
};

export const startFindings: Transition<"allScored"> = async (run, _event, io) => {
  // One set of pages per group (a role in a scheme, both viewports): a finding compares a page with
  // the other sites' pages of its role only.
  const groups = groupsOf(run)
    .map((group) => ({ group, pages: snapshotsOf(run, group) }))
    .filter((g) => g.pages.length > 0);
  const findingsFor = io.deps.tools.findingsFor;
  // Not `return io.raise(…)`: a transition's return value is its chosen next state.
  if (!findingsFor || groups.length === 0) {
    io.raise({ type: "found", findings: [] });
    return;
  }
  await setStage(io, run, "Writing findings");
  io.spawn(() => findFindings(groups, findingsFor, io));
};

/** Findings about pages this run captured, in the findings step's order (group by group); each names its page and scheme. */
export function findingRows(run: RunContext, list: readonly (Finding & { laneGroup?: string })[], at: string): FindingRow[] {
  const firstGroup = run.lanes[0]?.group;
  const pageOf = (f: Finding & { laneGroup?: string }) => {
    const lane = run.lanes.find((l) => l.group === (f.laneGroup ?? firstGroup) && l.viewport === f.viewport);
    const target = run.targets.findIndex((t) => t.id === f.targetId);
    const page = lane && target >= 0 ? lane.pages[target] : null;
    return lane && page && isCaptured(outcomesOf(run, lane.key)[target]) ? { lane, page } : null;
  };
  return list
    .flatMap((f) => {
      const where = pageOf(f);
      return where ? [{ f, ...where }] : [];
    })
    .map(({ f, lane, page }, position) => ({
      id: newId(),
      comparison_id: run.comparisonId,
      owner_id: run.ownerId,
      target_id: f.targetId,
      viewport: f.viewport,
      grp: f.group,
      severity: f.severity,
      title: f.title,
      evidence: JSON.stringify(f.evidence ?? {}),
      fix: f.fix,
      source: f.source,
      position,
      created_at: at,
      run_id: run.runId,
      rule: f.rule ?? null,
      page_id: page.id,
      color_scheme: lane.colorScheme,
    }));
}
