// Orchestrates one analysis run: capture every target at every viewport, store the snapshots,
// score each pair, store findings, and settle the status. It talks to the outside world only
// through the injected engine, so tests drive it with fakes and the app wires the real pool.
import { writeTx, type Db } from "../../db/connection";
import { isStorageError, isStorageMessage, STORAGE_UNAVAILABLE_MESSAGE } from "../../http/storage-errors";
import { newId, nowIso } from "../../lib/ids";
import type { Audience, LiveMessage } from "../../live/hub";
import type { GrayImage } from "../analysis/image";
import type { Extraction, Finding, PaletteEntry, SimilarityScores, Viewport } from "../capture/model";
import { pngSize, type ScreenshotFiles } from "./files";
import type { ComparisonProgress, ComparisonProgressMessage, ComparisonStatus, TargetStatus } from "./model";
import type { ComparisonsRepository, DiffRow, FindingRow, TargetRow } from "./repository";

export const RUN_VIEWPORTS: Viewport[] = ["desktop", "mobile"];
export const INTERRUPTED_REASON = "Interrupted by a server restart — start the analysis again";
/** How many captures of one target and viewport are kept; older ones are pruned with their files. */
export const SNAPSHOT_HISTORY = 3;
export const QUEUED_STAGE = "Waiting for a capture slot";
/** Pages in a run: every target at every viewport. */
export const pagesInRun = (targets: number) => targets * RUN_VIEWPORTS.length;

// ---- the engine: everything the runner needs from other modules ------------------------------
export type CaptureResult =
  | { ok: true; extraction: Extraction; screenshotPath: string; thumb?: GrayImage }
  | { ok: false; reason: string };
export interface CaptureJobInput {
  url: string;
  viewport: Viewport;
  /** Absolute path the PNG must be written to. */
  screenshotPath: string;
}
/** Matches CapturePool.submit. */
export type CaptureFn = (ownerId: string, job: CaptureJobInput, onStage?: (stage: string) => void) => Promise<CaptureResult>;

export interface PairScores extends SimilarityScores {
  components: Record<string, number>;
}
export interface Analyser {
  scorePair(aPath: string, a: Extraction, bPath: string, b: Extraction): PairScores | Promise<PairScores>;
  /** Hands over a stored screenshot's thumbnail made at capture time, so scoring needn't decode it. */
  prime?(path: string, thumb: GrayImage, palette: PaletteEntry[]): void;
}

/** One successfully captured page, as handed to the findings engine. */
export interface CapturedPage {
  targetId: string;
  label: string;
  url: string;
  viewport: Viewport;
  extraction: Extraction;
  screenshotPath: string;
}
export type FindingsFn = (pages: CapturedPage[]) => Finding[] | Promise<Finding[]>;

/** An activity-feed entry (type 'comparison'); the activity module stores it. */
export interface ComparisonActivity {
  type: "comparison";
  userId: string;
  message: string;
  details: string | null;
  status: "success" | "error" | "warning" | "info";
  metadata: Record<string, unknown>;
}

export interface ComparisonEngine {
  capture?: CaptureFn;
  analyser?: Analyser;
  findingsFor?: FindingsFn;
  publish?: (message: LiveMessage, to: Audience) => unknown;
  recordActivity?: (entry: ComparisonActivity) => unknown;
  /** Backstops in case a worker never answers; the pool has its own, shorter limits. */
  captureTimeoutMs?: number;
  scoreTimeoutMs?: number;
}

// ---- the runner --------------------------------------------------------------------------------
const STAGE_TEXT: Record<string, string> = {
  navigating: "opening the page",
  settling: "waiting for the page to settle",
  measuring: "measuring the design",
  screenshot: "taking the screenshot",
};

class Timeout extends Error {}

/** Runs async steps one after another in call order, whatever order they would finish in alone. */
type Turns = <T>(step: () => Promise<T>) => Promise<T>;
function turns(): Turns {
  let last: Promise<unknown> = Promise.resolve();
  return (step) => {
    const next = last.then(step);
    last = next.catch(() => {});
    return next;
  };
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(message)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

const reasonOf = (e: unknown) => (e instanceof Error && e.message ? e.message : "Capture failed");
const isHex = (s: unknown): s is string => typeof s === "string" && /^#[0-9a-f]{6}$/i.test(s);
const unit = (n: unknown): number | null => (typeof n === "number" && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : null);

const halted = (run: Run) => run.cancelled || run.ended;

interface Run {
  ownerId: string;
  comparisonId: string;
  name: string;
  /** Its comparison was deleted: stop writing, and remove what captures deliver late. */
  cancelled: boolean;
  /** Given up (crashed, or the server is shutting down) and failed: stop writing, keep the comparison. */
  ended: boolean;
  progress: ComparisonProgress;
  done: Promise<void>;
}

export interface RunnerDeps {
  db: Db;
  repo: ComparisonsRepository;
  files: ScreenshotFiles;
  engine: ComparisonEngine;
  now: () => number;
  log: (msg: string, err?: unknown) => void;
}

export function comparisonRunner(deps: RunnerDeps) {
  const { repo, files, engine, now, log } = deps;
  const runs = new Map<string, Run>();
  const captureTimeoutMs = () => engine.captureTimeoutMs ?? 5 * 60_000;
  const scoreTimeoutMs = () => engine.scoreTimeoutMs ?? 2 * 60_000;

  const send = (ownerId: string, type: "COMPARISON_PROGRESS" | "COMPARISON_STATUS", payload: ComparisonProgressMessage) => {
    try {
      engine.publish?.({ type, payload }, { kind: "user", userId: ownerId });
    } catch (e) {
      log("comparison live publish failed", e);
    }
  };
  const activity = (entry: Omit<ComparisonActivity, "type">) => {
    try {
      engine.recordActivity?.({ type: "comparison", ...entry });
    } catch (e) {
      log("comparison activity failed", e);
    }
  };

  function setStage(run: Run, stage: string) {
    if (halted(run)) return;
    run.progress = { ...run.progress, stage };
    repo.setProgress(run.comparisonId, run.progress.done, run.progress.total, stage, nowIso(now()));
    send(run.ownerId, "COMPARISON_PROGRESS", { comparisonId: run.comparisonId, status: "running", progress: run.progress });
  }

  function setTarget(run: Run, targetId: string, status: TargetStatus, error: string | null) {
    if (halted(run)) return;
    repo.setTargetStatus(targetId, status, error);
    send(run.ownerId, "COMPARISON_STATUS", {
      comparisonId: run.comparisonId,
      status: "running",
      progress: run.progress,
      targetId,
      targetStatus: status,
    });
  }

  /** Captures one page and stores its snapshot; returns the page, or the reason it failed. */
  async function capturePage(run: Run, target: TargetRow, viewport: Viewport, inTurn: Turns): Promise<CapturedPage | { reason: string }> {
    const capture = engine.capture!;
    const snapshotId = newId();
    const path = await inTurn(() => files.prepare(run.ownerId, run.comparisonId, snapshotId));
    const work = capture(run.ownerId, { url: target.url, viewport, screenshotPath: path }, (stage) =>
      setStage(run, `${target.label} · ${viewport}: ${STAGE_TEXT[stage] ?? stage}`),
    );
    let result: CaptureResult;
    try {
      result = await withTimeout(work, captureTimeoutMs(), "The page took too long to capture");
    } catch (e) {
      // A capture that answers after we gave up must not leave its file behind.
      if (e instanceof Timeout) void work.then((r) => (r.ok ? files.remove(r.screenshotPath) : undefined)).catch(() => {});
      result = { ok: false, reason: reasonOf(e) };
    }
    if (halted(run)) {
      if (result.ok) await files.remove(result.screenshotPath).catch(() => {});
      return { reason: "Cancelled" };
    }
    if (!result.ok) {
      // A capture that failed late may have written part of a file.
      await files.remove(path).catch(() => {});
      // A full or read-only disk is ours to fix, not the website's: say so instead of quoting ENOSPC.
      return { reason: isStorageMessage(result.reason) ? STORAGE_UNAVAILABLE_MESSAGE : result.reason || "Capture failed" };
    }

    let relPath: string;
    try {
      relPath = files.toStored(result.screenshotPath);
    } catch (e) {
      log("capture wrote outside the screenshot root", e);
      return { reason: "Capture failed" };
    }
    const absolute = files.toAbsolute(relPath);
    const size = await pngSize(absolute);
    if (!size) {
      await files.remove(absolute).catch(() => {});
      return { reason: "The screenshot could not be saved" };
    }
    if (halted(run)) return { reason: "Cancelled" };
    const x = result.extraction;
    const colors = (x.palette?.dominant ?? []).map((p) => p.hex).filter(isHex).map((h) => h.toLowerCase());
    const inserted = writeTx(deps.db, () =>
      repo.insertSnapshot({
        id: snapshotId,
        target_id: target.id,
        comparison_id: run.comparisonId,
        owner_id: run.ownerId,
        viewport,
        captured_at: nowIso(now()),
        screenshot_path: relPath,
        title: String(x.title ?? "").slice(0, 500),
        colors: JSON.stringify(colors),
        width: size.width,
        height: size.height,
        extraction: JSON.stringify(x),
      }),
    );
    if (!inserted) {
      await files.remove(absolute).catch(() => {});
      return { reason: "Cancelled" };
    }
    if (result.thumb) {
      try {
        engine.analyser?.prime?.(absolute, result.thumb, x.palette?.dominant ?? []);
      } catch (e) {
        log("could not hand the thumbnail to the analyser", e); // scoring decodes the file instead
      }
    }
    await pruneHistory(target.id, viewport);
    return { targetId: target.id, label: target.label, url: target.url, viewport, extraction: x, screenshotPath: absolute };
  }

  async function pruneHistory(targetId: string, viewport: Viewport) {
    const stale = repo.staleSnapshots(targetId, viewport, SNAPSHOT_HISTORY);
    for (const s of stale) {
      repo.deleteSnapshot(s.id);
      await files.remove(files.toAbsolute(s.screenshot_path)).catch((e) => log("could not remove old screenshot", e));
    }
  }

  /** One page, counted in the progress whatever its outcome. */
  async function captureCounted(run: Run, target: TargetRow, viewport: Viewport, inTurn: Turns): Promise<CapturedPage | { reason: string }> {
    let outcome: CapturedPage | { reason: string };
    try {
      outcome = await capturePage(run, target, viewport, inTurn);
    } catch (e) {
      log(`capture of ${target.id} (${viewport}) failed`, e);
      outcome = { reason: isStorageError(e) ? STORAGE_UNAVAILABLE_MESSAGE : "Capture failed" };
    }
    if (!halted(run)) {
      run.progress = { ...run.progress, done: run.progress.done + 1 };
      setStage(run, `Captured ${run.progress.done} of ${run.progress.total} pages`);
    }
    return outcome;
  }

  /** Settles a target's status once its page at every viewport (RUN_VIEWPORTS order) is in. */
  async function captureTarget(run: Run, target: TargetRow, captures: Promise<CapturedPage | { reason: string }>[]): Promise<CapturedPage[]> {
    const outcomes = (await Promise.all(captures)).map((outcome, i) => ({ viewport: RUN_VIEWPORTS[i]!, outcome }));
    const pages = outcomes.flatMap((o) => ("reason" in o.outcome ? [] : [o.outcome]));
    if (pages.length > 0) setTarget(run, target.id, "completed", null);
    else {
      const reasons = [...new Set(outcomes.map((o) => ("reason" in o.outcome ? o.outcome.reason : "")))];
      const reason =
        reasons.length === 1
          ? reasons[0]!
          : outcomes.map((o) => `${o.viewport}: ${"reason" in o.outcome ? o.outcome.reason : ""}`).join("; ");
      setTarget(run, target.id, "failed", reason.slice(0, 500));
    }
    return pages;
  }

  /** Scores every pair at one viewport. */
  async function score(run: Run, targets: TargetRow[], pages: CapturedPage[], viewport: Viewport): Promise<DiffRow[]> {
    const diffs: DiffRow[] = [];
    if (!engine.analyser) return diffs;
    // Targets keep their createdAt order, so pair (first, second) is always scored first.
    const atViewport = targets.flatMap((t) => pages.filter((p) => p.targetId === t.id && p.viewport === viewport));
    for (let i = 0; i < atViewport.length; i++) {
      for (let j = i + 1; j < atViewport.length; j++) {
        if (halted(run)) return diffs;
        const a = atViewport[i]!;
        const b = atViewport[j]!;
        setStage(run, `Scoring ${a.label} vs ${b.label} (${viewport})`);
        try {
          const s = await withTimeout(
            Promise.resolve(engine.analyser.scorePair(a.screenshotPath, a.extraction, b.screenshotPath, b.extraction)),
            scoreTimeoutMs(),
            "Scoring took too long",
          );
          const values = [unit(s.colorSimilarity), unit(s.layoutSimilarity), unit(s.contentSimilarity), unit(s.overallSimilarity)];
          if (values.some((v) => v === null)) throw new Error(`analyser returned non-numeric scores: ${JSON.stringify(s)}`);
          const components = Object.fromEntries(
            Object.entries(s.components ?? {}).filter(([, v]) => typeof v === "number" && Number.isFinite(v)),
          );
          diffs.push({
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
          });
        } catch (e) {
          log(`scoring ${a.targetId} vs ${b.targetId} (${viewport}) failed`, e);
        }
      }
    }
    return diffs;
  }

  async function findings(run: Run, pages: CapturedPage[]): Promise<FindingRow[]> {
    if (!engine.findingsFor || pages.length === 0) return [];
    setStage(run, "Writing findings");
    let list: Finding[];
    try {
      list = await withTimeout(Promise.resolve(engine.findingsFor(pages)), scoreTimeoutMs(), "Findings took too long");
    } catch (e) {
      log("findings failed", e);
      return [];
    }
    const valid = new Set(pages.map((p) => `${p.targetId}|${p.viewport}`));
    const at = nowIso(now());
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
      }));
  }

  function settle(run: Run, status: "completed" | "failed", error: string | null, diffs: DiffRow[], found: FindingRow[]) {
    if (run.cancelled) return false;
    const stage = status === "completed" ? "Completed" : "Failed";
    const ended = writeTx(deps.db, () => {
      // Only a comparison still running takes this run's results; one failed meanwhile keeps its state.
      if (!repo.finish(run.comparisonId, status, error, stage, nowIso(now()))) return false;
      if (error) repo.failUnfinishedTargets(run.comparisonId, error);
      repo.replaceResults(run.comparisonId, diffs, found);
      return true;
    });
    if (!ended) return false;
    run.progress = { ...run.progress, stage };
    send(run.ownerId, "COMPARISON_STATUS", { comparisonId: run.comparisonId, status, progress: run.progress });
    return true;
  }

  /**
   * Fails a crashed run. When the disk is full that write fails too, so it is retried until space
   * returns (or the run is cancelled): otherwise the comparison would stay 'running' until a restart.
   */
  async function settleEventually(run: Run, reason: string) {
    for (let attempt = 0; ; attempt++) {
      try {
        settle(run, "failed", reason, [], []);
        return;
      } catch (e) {
        if (!isStorageError(e) || run.cancelled) {
          log(`could not mark comparison ${run.comparisonId} failed`, e);
          return;
        }
        await Bun.sleep(Math.min(2_000, 250 * 2 ** attempt));
      }
    }
  }

  async function execute(run: Run, targets: TargetRow[]) {
    // Every target at one viewport, then the next: a viewport's pairs are scored (in the analyse
    // worker) as soon as its pages are in, while the next viewport is still being captured.
    // Pages reach the capture queue in this order (see turns()), so the first viewport's pairs are
    // complete first.
    const inTurn = turns();
    const captures = RUN_VIEWPORTS.map((viewport) => targets.map((t) => captureCounted(run, t, viewport, inTurn)));
    const scoring = RUN_VIEWPORTS.map(async (viewport, v) => {
      const pages = (await Promise.all(captures[v]!)).flatMap((o) => ("reason" in o ? [] : [o]));
      return score(run, targets, pages, viewport);
    });
    // Awaited once every capture is in; a run that ends early leaves them to stop at halted(run).
    for (const p of scoring) p.catch((e) => log(`scoring for ${run.comparisonId} failed`, e));
    try {
      const perTarget = await Promise.all(targets.map((t, i) => captureTarget(run, t, captures.map((c) => c[i]!))));
      if (halted(run)) return;
      const pages = perTarget.flat();
      const captured = perTarget.filter((p) => p.length > 0).length;
      if (captured < 2) {
        const reason =
          captured === 0
            ? `None of the ${targets.length} websites could be captured — at least 2 are needed for a comparison`
            : `Only 1 of ${targets.length} websites could be captured — at least 2 are needed for a comparison`;
        if (settle(run, "failed", reason, [], []))
          activity({
            userId: run.ownerId,
            message: `Comparison "${run.name}" failed`,
            details: reason,
            status: "error",
            metadata: { comparisonId: run.comparisonId, captured, targets: targets.length },
          });
        return;
      }
      const diffs = (await Promise.all(scoring)).flat();
      const found = await findings(run, pages);
      if (settle(run, "completed", null, diffs, found))
        activity({
          userId: run.ownerId,
          message: `Comparison "${run.name}" completed`,
          details: `${captured} of ${targets.length} websites captured, ${diffs.length} pairs scored, ${found.length} findings`,
          status: captured === targets.length ? "success" : "warning",
          metadata: { comparisonId: run.comparisonId, captured, targets: targets.length, diffs: diffs.length, findings: found.length },
        });
    } catch (e) {
      // Whatever went wrong, the run ends: a comparison never stays 'running'. Captures still in
      // flight must not write for it any more.
      log(`comparison run ${run.comparisonId} crashed`, e);
      run.ended = true;
      await settleEventually(run, isStorageError(e) ? STORAGE_UNAVAILABLE_MESSAGE : "Something went wrong during the analysis — start it again");
    } finally {
      runs.delete(run.comparisonId);
      // Captures still in flight when the comparison was deleted may have recreated its folder.
      if (run.cancelled) await files.removeComparison(run.ownerId, run.comparisonId).catch(() => {});
    }
  }

  /** Fails a run the server can no longer finish, and tells its owner why. */
  function failInterrupted(c: { id: string; ownerId: string; name: string }): boolean {
    const ended = writeTx(deps.db, () => {
      repo.failUnfinishedTargets(c.id, INTERRUPTED_REASON);
      return repo.finish(c.id, "failed", INTERRUPTED_REASON, "Failed", nowIso(now()));
    });
    if (!ended) return false;
    activity({
      userId: c.ownerId,
      message: `Comparison "${c.name}" failed`,
      details: INTERRUPTED_REASON,
      status: "error",
      metadata: { comparisonId: c.id },
    });
    return true;
  }

  return {
    get available() {
      return Boolean(engine.capture);
    },

    isActive: (comparisonId: string) => runs.has(comparisonId),

    /** Call after the comparison was marked running and its targets capturing (one transaction, in the service). */
    launch(c: { ownerId: string; comparisonId: string; name: string }, targets: TargetRow[]) {
      const total = pagesInRun(targets.length);
      const run: Run = { ...c, cancelled: false, ended: false, progress: { done: 0, total, stage: QUEUED_STAGE }, done: Promise.resolve() };
      runs.set(c.comparisonId, run);
      const status: ComparisonStatus = "running";
      send(c.ownerId, "COMPARISON_STATUS", { comparisonId: c.comparisonId, status, progress: run.progress });
      activity({
        userId: c.ownerId,
        message: `Comparison "${c.name}" started`,
        details: `Capturing ${targets.length} websites at ${RUN_VIEWPORTS.length} viewports`,
        status: "info",
        metadata: { comparisonId: c.comparisonId, targets: targets.length },
      });
      run.done = execute(run, targets);
    },

    /** The comparison is being deleted: stop writing for it and clean up what arrives late. */
    cancel(comparisonId: string) {
      const run = runs.get(comparisonId);
      if (run) run.cancelled = true;
    },

    /** Resolves when every run in this process has ended (tests, graceful shutdown). */
    async idle() {
      while (runs.size > 0) await Promise.all([...runs.values()].map((r) => r.done));
    },

    /**
     * Runs are in-process, so any comparison still 'running' at boot lost its run in a crash or
     * restart. They are failed with a reason rather than resumed: a page that crashed the server
     * would otherwise crash it again on every boot. The user can start the analysis again.
     */
    recoverInterruptedRuns(): number {
      let n = 0;
      for (const c of repo.runningComparisons()) {
        if (runs.has(c.id)) continue;
        if (failInterrupted({ id: c.id, ownerId: c.owner_id, name: c.name })) n++;
      }
      return n;
    },

    /**
     * Graceful shutdown, before the capture pool closes: runs still going end now with the restart
     * reason. Otherwise each would fail on the pool's "shutting down" answers and blame the websites.
     */
    interruptAll(): number {
      let n = 0;
      for (const run of runs.values()) {
        if (halted(run)) continue;
        run.ended = true;
        try {
          if (!failInterrupted({ id: run.comparisonId, ownerId: run.ownerId, name: run.name })) continue;
        } catch (e) {
          // The disk may be full; boot recovery fails the run with the same reason next time.
          log(`could not mark comparison ${run.comparisonId} interrupted`, e);
          continue;
        }
        n++;
        send(run.ownerId, "COMPARISON_STATUS", {
          comparisonId: run.comparisonId,
          status: "failed",
          progress: { ...run.progress, stage: "Failed" },
        });
      }
      return n;
    },
  };
}

export type ComparisonRunner = ReturnType<typeof comparisonRunner>;
