// Moves of scoring and findings. Each viewport's pairs are scored one after another, each pair's
// report starting the next, so a run that ended stops at the next pair: the table drops the report.
import { newId } from "#server/lib/ids";
import type { Finding, Viewport } from "#server/modules/capture/model";
import type { FindingRow } from "../../repository";
import { snapshotsOf, isCaptured, type RunContext } from "../context";
import { findFindings } from "../effects/findings";
import { scorePair } from "../effects/score-pair";
import { setStage, type RunIO } from "../io";
import { scoredEverywhere } from "./timing";
import type { Transition } from "./types";

/** Every page at this viewport is in: pair the captured ones in target order and score the first pair. */
export function startScoring(run: RunContext, viewport: Viewport, io: RunIO) {
  const s = run.scoring[viewport];
  if (io.deps.tools.analyser) {
    const pages = run.pages[viewport].filter(isCaptured);
    for (let i = 0; i < pages.length; i++) for (let j = i + 1; j < pages.length; j++) s.pairs.push([pages[i]!, pages[j]!]);
  }
  scoreNext(run, viewport, io);
}

function scoreNext(run: RunContext, viewport: Viewport, io: RunIO) {
  const s = run.scoring[viewport];
  const pair = s.pairs[s.next];
  const analyser = io.deps.tools.analyser;
  if (!pair || !analyser) {
    io.raise({ type: "viewportScored", viewport });
    return;
  }
  s.next++;
  setStage(io, run, `Scoring ${pair[0].label} vs ${pair[1].label} (${viewport})`);
  io.spawn(() => scorePair(run, viewport, pair, analyser, io));
}

export const keepScore: Transition<"pairScored"> = (run, { viewport, diff }, io) => {
  run.scoring[viewport].diffs.push(diff);
  scoreNext(run, viewport, io);
};

export const skipPair: Transition<"pairFailed"> = (run, { viewport, pair, error }, io) => {
  io.deps.log(`scoring ${pair} (${viewport}) failed`, error);
  scoreNext(run, viewport, io);
};

/** While pages are still coming in, a viewport's scoring finishing is only noted. */
export const markScored: Transition<"viewportScored"> = (run, { viewport }) => {
  run.scoring[viewport].done = true;
};

export const checkScored: Transition<"viewportScored"> = (run, event, io) => {
  markScored(run, event, io);
  if (scoredEverywhere(run)) io.raise({ type: "allScored" });
};

export const startFindings: Transition<"allScored"> = (run, _event, io) => {
  const pages = snapshotsOf(run);
  const findingsFor = io.deps.tools.findingsFor;
  // Not `return io.raise(…)`: a transition's return value is its chosen next state.
  if (!findingsFor || pages.length === 0) {
    io.raise({ type: "found", findings: [] });
    return;
  }
  setStage(io, run, "Writing findings");
  io.spawn(() => findFindings(pages, findingsFor, io));
};

/** Findings about pages this run captured, in the findings step's order. */
export function findingRows(run: RunContext, list: Finding[], at: string): FindingRow[] {
  const valid = new Set(snapshotsOf(run).map((p) => `${p.targetId}|${p.viewport}`));
  return list
    .filter((f) => valid.has(`${f.targetId}|${f.viewport}`))
    .map((f, position) => ({
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
    }));
}
