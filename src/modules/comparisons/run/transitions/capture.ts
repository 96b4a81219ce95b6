// Moves while pages come in: each capture is counted once whatever its outcome, a target is settled
// when its every capture is in, a lane's pairs start scoring when its every capture is in.
import { isStorageError, storageMessageOf } from "#server/http/storage-errors";
import { nowIso } from "#server/lib/ids";
import {
  RUN_VIEWPORTS,
  isCaptured,
  laneComplete,
  laneOf,
  membersOf,
  outcomesOf,
  type Capture,
  type PageOutcome,
  type PageKey,
  type RunContext,
} from "../context";
import { CAPTURES_IN_FLIGHT, capturePage } from "../effects/capture-page";
import { slots, turns } from "../effects/timeout";
import { recordActivity, removeFile, send, setStage, setTarget, type RunIO } from "../io";
import { startScoring } from "./score";
import { scoredEverywhere, startTiming } from "./timing";
import { settle } from "./settle";
import type { Transition } from "./types";

const isHex = (s: unknown): s is string => typeof s === "string" && /^#[0-9a-f]{6}$/i.test(s);

export const announceLaunch: Transition<"launch"> = (run, _event, io) => {
  send(io, run, "COMPARISON_STATUS", { comparisonId: run.comparisonId, status: "running", progress: run.progress });
  const captures = run.progress.total;
  const homeOnly = captures === run.targets.length * RUN_VIEWPORTS.length;
  recordActivity(io, {
    userId: run.ownerId,
    message: `Comparison "${run.name}" started`,
    details: homeOnly
      ? `Capturing ${run.targets.length} websites at ${RUN_VIEWPORTS.length} viewports`
      : `Capturing ${run.targets.length} websites: ${captures} pages, viewports and colour schemes`,
    status: "info",
    metadata: { comparisonId: run.comparisonId, targets: run.targets.length },
  });
  // Every site's page of one lane, then the next lane: a lane's pairs are scored (in the analyse
  // worker) as soon as its pages are in, while later lanes are still being captured. Pages reach
  // the fair capture queue in this order (turns() keeps it), desktop lanes first, so the first
  // lanes' pairs are complete first.
  const inTurn = turns();
  const inSlot = slots(CAPTURES_IN_FLIGHT);
  for (const lane of run.lanes)
    for (const { target } of membersOf(lane)) io.spawn(() => capturePage(run, { target, lane: lane.key }, inTurn, inSlot, io));
};

export const reportStage: Transition<"stage"> = async (run, { text }, io) => {
  await setStage(io, run, text);
};

export const storePage: Transition<"pageCaptured"> = async (run, { page, capture }, io) =>
  countPage(run, page, await saveSnapshot(run, page, capture, io), io);

/**
 * Stores the page as a snapshot of this run under its content hash (an identical earlier capture
 * is the same file) and hands its thumbnail to the analyser; a failed write fails the page, not the run.
 */
async function saveSnapshot(run: RunContext, page: PageKey, capture: Capture, io: RunIO): Promise<PageOutcome> {
  const { tools, files, log } = io.deps;
  const target = run.targets[page.target]!;
  const lane = laneOf(run, page.lane);
  const sitePage = lane.pages[page.target]!;
  let stored = false;
  let key: string | null = null;
  let kept: string | null = null;
  try {
    key = files.storedFor(capture.absolute, capture.sha256);
    try {
      // The key stays pinned from here until its row is written (or is not): no removal takes the file meanwhile.
      // A capture its worker stored is pinned already (adoptStored) and has no file here: the run names its key.
      kept = capture.stored ? key : files.adopt(capture.absolute, capture.sha256);
      stored = await insertSnapshot(run, target.id, page, capture, key, io);
    } finally {
      files.recorded(key);
    }
    if (!stored) {
      // The comparison stopped running without this run knowing (recovered by another process).
      await dropUnused(key, kept, io);
      return { reason: "Cancelled" };
    }
    // Steps that stopped: the page is stored with where it stopped, and neither scored nor found about.
    if (capture.step) return { reason: `Step ${capture.step.index}: ${capture.step.error}`, stoppedAt: kept };
  } catch (e) {
    log(`capture of ${target.id} (${page.lane}) failed`, e);
    if (!stored) {
      if (kept && key) await dropUnused(key, kept, io);
      else {
        removeFile(io, capture.absolute);
        // An object store already holds it (place, or its worker): gone too unless an earlier snapshot shares it.
        if (key && (files.remote || capture.stored)) await dropUnused(key, null, io);
      }
    }
    return { reason: isStorageError(e) ? storageMessageOf(e) : "Capture failed" };
  }
  const x = capture.extraction!;
  if (capture.thumb) {
    try {
      tools.analyser?.prime?.(kept, capture.thumb, x.palette?.dominant ?? []);
    } catch (e) {
      log("could not hand the thumbnail to the analyser", e); // scoring decodes the file instead
    }
  }
  return {
    targetId: target.id,
    label: target.label,
    url: sitePage.url,
    viewport: lane.viewport,
    extraction: x,
    screenshotPath: kept,
    snapshotId: capture.snapshotId,
    earlierSamples: capture.earlierSamples,
    pageId: sitePage.id,
    role: lane.role,
    colorScheme: lane.colorScheme,
  };
}

/**
 * A file this run stored but could not record: gone unless an earlier snapshot shares it. `local`
 * is the capture's file here (the stored one itself for the files store, a working copy otherwise).
 */
async function dropUnused(key: string, local: string | null, io: RunIO) {
  const { files, repo, log } = io.deps;
  try {
    await files.removeUnused(key, repo.pathInUse);
    if (local) files.releaseLocal(local);
  } catch (e) {
    log("could not remove screenshot", e);
  }
}

/** False when the comparison is no longer running. */
function insertSnapshot(run: RunContext, targetId: string, page: PageKey, capture: Capture, relPath: string, io: RunIO): Promise<boolean> {
  const { repo, now } = io.deps;
  const lane = laneOf(run, page.lane);
  const x = capture.extraction;
  const colors = (x?.palette?.dominant ?? [])
    .map((p) => p.hex)
    .filter(isHex)
    .map((h) => h.toLowerCase());
  return repo.insertSnapshot({
    id: capture.snapshotId,
    target_id: targetId,
    comparison_id: run.comparisonId,
    owner_id: run.ownerId,
    viewport: lane.viewport,
    captured_at: nowIso(now()),
    screenshot_path: relPath,
    title: String(x?.title ?? "").slice(0, 500),
    colors: JSON.stringify(colors),
    width: capture.width,
    height: capture.height,
    extraction: JSON.stringify(x),
    run_id: run.runId,
    content_hash: capture.sha256,
    file_bytes: capture.bytes,
    page_id: lane.pages[page.target]!.id,
    color_scheme: lane.colorScheme,
    step: capture.step ? JSON.stringify(capture.step) : null,
  });
}

export const countFailedPage: Transition<"pageFailed"> = (run, { page, reason }, io) => countPage(run, page, { reason }, io);

export const countTimedOutPage: Transition<"pageTimedOut"> = (run, { page }, io) =>
  countPage(run, page, { reason: "The page took too long to capture" }, io);

/** A page that arrives after the run ended is not stored (nor kept in an object store that already took it). */
export const discardPage: Transition<"pageCaptured"> = async (_run, { capture }, io) => {
  removeFile(io, capture.absolute);
  const { files } = io.deps;
  if (!files.remote && !capture.stored) return;
  const key = files.storedFor(capture.absolute, capture.sha256);
  files.recorded(key);
  await dropUnused(key, null, io);
};

export const checkCaptured: Transition<"allCaptured"> = async (run, _event, io) => {
  const captured = capturedTargets(run);
  if (captured < 2) {
    const reason =
      captured === 0
        ? `None of the ${run.targets.length} websites could be captured — at least 2 are needed for a comparison`
        : `Only 1 of ${run.targets.length} websites could be captured — at least 2 are needed for a comparison`;
    if (await settle(io, run, "failed", reason, [], []))
      recordActivity(io, {
        userId: run.ownerId,
        message: `Comparison "${run.name}" failed`,
        details: reason,
        status: "error",
        metadata: { comparisonId: run.comparisonId, captured, targets: run.targets.length },
      });
    return "failed";
  }
  try {
    io.deps.onCaptured?.(run);
  } catch (e) {
    io.deps.log(`after-capture work for comparison ${run.comparisonId} failed`, e);
  }
  if (scoredEverywhere(run)) io.raise({ type: "allScored" });
  return "scoring";
};

export const capturedTargets = (run: RunContext) =>
  run.targets.filter((_, i) => run.lanes.some((l) => isCaptured(outcomesOf(run, l.key)[i]))).length;

/** The lanes a target has a page in. */
const lanesOfTarget = (run: RunContext, index: number) => run.lanes.filter((l) => l.pages[index]);

async function countPage(run: RunContext, page: PageKey, outcome: PageOutcome, io: RunIO) {
  const lane = laneOf(run, page.lane);
  const inLane = outcomesOf(run, page.lane);
  if (inLane[page.target] !== undefined) throw new Error(`page ${page.target}/${page.lane} reported twice`);
  inLane[page.target] = outcome;
  run.progress = { ...run.progress, done: run.progress.done + 1 };
  await setStage(io, run, `Captured ${run.progress.done} of ${run.progress.total} pages`);
  if (lanesOfTarget(run, page.target).every((l) => outcomesOf(run, l.key)[page.target] !== undefined))
    await settleTarget(run, page.target, io);
  if (laneComplete(run, lane)) {
    startTiming(run, lane.key, io);
    await startScoring(run, lane.key, io);
  }
  if (run.lanes.every((l) => laneComplete(run, l))) io.raise({ type: "allCaptured" });
}

/**
 * Completed when any capture of it was made, naming the captures that were not (a site whose
 * pricing page failed still has its home page compared, and the user must see what is missing);
 * otherwise failed with the reason(s), per page when they differ.
 */
async function settleTarget(run: RunContext, index: number, io: RunIO) {
  const target = run.targets[index]!;
  const outcomes = lanesOfTarget(run, index).map((lane) => ({ lane, outcome: outcomesOf(run, lane.key)[index]! }));
  const reasonOf = (o: PageOutcome) => ("reason" in o ? o.reason : "");
  // A note beside captured pages always names the page: "desktop" alone would not say which.
  const placed = (list: typeof outcomes, withPath = false) =>
    list.map((o) => `${placeOf(o.lane, index, withPath)}: ${reasonOf(o.outcome)}`).join("; ");
  const missed = outcomes.filter((o) => !isCaptured(o.outcome));
  if (missed.length < outcomes.length) {
    const note = missed.length ? `Not captured: ${placed(missed, true)}`.slice(0, 500) : null;
    return setTarget(io, run, target.id, "completed", note);
  }
  const reasons = [...new Set(outcomes.map((o) => reasonOf(o.outcome)))];
  const reason = reasons.length === 1 ? reasons[0]! : placed(outcomes);
  await setTarget(io, run, target.id, "failed", reason.slice(0, 500));
}

/** How a reason names a capture: its viewport, with the page's path and the scheme where the run has more than the home page in light. */
function placeOf(lane: ReturnType<typeof laneOf>, index: number, withPath = false): string {
  const page = lane.pages[index];
  const where = [
    lane.role === "home" && !withPath ? null : (page?.path ?? lane.role),
    lane.viewport,
    lane.colorScheme === "light" ? null : lane.colorScheme,
  ];
  return where.filter(Boolean).join(" ");
}
