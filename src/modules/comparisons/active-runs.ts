// The registry of this process's live runs: capture every target at every viewport, store the
// snapshots, score each pair, store findings, and settle the status. Each run is a state machine
// whose whole lifecycle is the table in run/table.ts (read that first;
// docs/decisions/0005-run-state-machine.md says why). This file keeps the runs of this process and
// turns the service's calls into the machine's events. It talks to the outside world only through
// the run's tools (run/tools.ts), so tests drive it with fakes and the app wires the real capture pool.
import { newId, nowIso } from "#server/lib/ids";
import type { PageRow, TargetRow } from "./repository";
import { QUEUED_STAGE, isCaptured, membersOf, newRunContext, type RunContext, type RunStart } from "./run/context";
import type { RunDeps } from "./run/io";
import { RunMachine } from "./run/machine";
import type { RunState } from "./run/table";
import { TRANSITIONS } from "./run/transitions/index";

export type {
  Analyser,
  CaptureFn,
  CaptureJobInput,
  CaptureResult,
  ComparisonActivity,
  FindingsFn,
  PairScores,
  RunReporting,
  RunSessions,
  RunTools,
  TimeFn,
  TimingJobInput,
  TimingResult,
} from "./run/tools";
export { createRunTools } from "./run/tools";
export { INTERRUPTED_REASON, QUEUED_STAGE, RUN_VIEWPORTS, pagesInRun } from "./run/context";
export type { RunContext, RunStart, RunTrigger } from "./run/context";
export type { RunDeps } from "./run/io";

/** The runs of this process. A comparison started again while its previous run still drains has two, so they are kept by runId. */
export interface RecoverOptions {
  /**
   * Whether a run is still driven: `driver` is the instance its row records (null: none recorded;
   * undefined: its row is not written yet, a run being launched), `since` when its comparison last
   * changed.
   */
  driving?: (run: { driver: string | null | undefined; since: string }) => boolean | Promise<boolean>;
  /** What the failed runs say; the restart reason when absent. */
  reason?: string;
}

export class ActiveRuns {
  readonly #runs = new Map<string, RunMachine>();
  /** After-close work still going (an onClosed that returned a promise). */
  readonly #closing = new Set<Promise<void>>();
  constructor(private readonly deps: RunDeps) {}

  get available() {
    return Boolean(this.deps.tools.capture);
  }

  isActive(comparisonId: string) {
    return this.#of(comparisonId).length > 0;
  }

  /**
   * Call after the comparison was marked running and its targets capturing (one transaction, in the
   * service). Without pages, each target is captured at its URL as its home page. Resolves once
   * the launch has been taken (announced, its captures queued).
   */
  async launch(start: RunStart, targets: TargetRow[], pages?: PageRow[]): Promise<string> {
    const run = newRunContext({ ...start, runId: start.runId ?? newId() }, targets, { done: 0, total: 0, stage: QUEUED_STAGE }, pages);
    run.progress = { ...run.progress, total: run.lanes.reduce((n, lane) => n + membersOf(lane).length, 0) };
    run.sessions = this.deps.tools.stepSessions?.() ?? null;
    // Its row in the run history (the caller may have written it already): snapshots, scores and findings carry its id.
    await this.deps.repo.openRun({
      id: run.runId,
      comparisonId: run.comparisonId,
      ownerId: run.ownerId,
      trigger: run.trigger,
      at: nowIso(this.deps.now()),
      driver: this.deps.driver,
    });
    await this.#begin(run, "created").dispatch({ type: "launch" });
    return run.runId;
  }

  /**
   * The comparison is being deleted: its runs stop writing and clean up what arrives late.
   * Resolves once each has taken the cancel (after any transition it was in the middle of).
   */
  async cancel(comparisonId: string) {
    await Promise.all(this.#of(comparisonId).map((m) => m.dispatch({ type: "cancel" })));
  }

  /** Resolves when every run in this process has closed, and their after-close work is done (tests, graceful shutdown). */
  async idle() {
    while (this.#runs.size > 0 || this.#closing.size > 0)
      await Promise.all([...[...this.#runs.values()].map((m) => m.done), ...this.#closing]);
  }

  /**
   * Comparisons left 'running' whose run no process drives any more (a crash or restart) are failed
   * with a reason. By default every such run not in this process (the embedded server is one
   * process); with `driving`, only those whose driver is not driving any more.
   */
  async recoverInterruptedRuns(opts: RecoverOptions = {}): Promise<number> {
    let n = 0;
    const running = await this.deps.repo.runningComparisons();
    const drivers = opts.driving && running.length ? await this.deps.repo.runDrivers() : null;
    for (const c of running) {
      if (this.#of(c.id).length > 0) continue;
      if (drivers && opts.driving && (await opts.driving({ driver: drivers.get(c.id), since: c.updated_at }))) continue;
      const progress = { done: c.progress_done ?? 0, total: c.progress_total ?? 0, stage: c.progress_stage ?? "" };
      const run = newRunContext({ ownerId: c.owner_id, comparisonId: c.id, name: c.name, runId: newId() }, [], progress);
      await this.#begin(run, "orphaned").dispatch({ type: "recover", reason: opts.reason });
      if (run.outcome?.recorded) n++;
    }
    return n;
  }

  /** Graceful shutdown, before the capture pool closes: runs still working end now with the restart reason. */
  async interruptAll(): Promise<number> {
    const ended = await Promise.all(
      [...this.#runs.values()].map(async (m) => {
        const before = m.run.outcome;
        await m.dispatch({ type: "interrupt" });
        return m.run.outcome !== before && m.run.outcome?.recorded === true;
      }),
    );
    return ended.filter(Boolean).length;
  }

  #begin(run: RunContext, initial: RunState): RunMachine {
    const machine = new RunMachine({ run, initial, deps: this.deps, transitions: TRANSITIONS });
    this.#runs.set(run.runId, machine);
    void machine.done.then(() => {
      this.#runs.delete(run.runId);
      // An object store's working copies were for this run's scoring; the stored objects stay.
      for (const lane of run.lanes)
        for (const page of run.pages[lane.key] ?? []) {
          if (isCaptured(page)) this.#releaseLocal(page.screenshotPath);
          else if (page?.stoppedAt) this.#releaseLocal(page.stoppedAt);
        }
      const failed = (e: unknown) => this.deps.log(`after-close work for comparison ${run.comparisonId} failed`, e);
      try {
        const work = this.deps.onClosed?.(run);
        if (work instanceof Promise) {
          const tracked: Promise<void> = work.then(() => {}, failed);
          this.#closing.add(tracked);
          void tracked.then(() => this.#closing.delete(tracked));
        }
      } catch (e) {
        failed(e);
      }
    });
    return machine;
  }

  #releaseLocal(path: string) {
    try {
      this.deps.files.releaseLocal(path);
    } catch (e) {
      this.deps.log("could not remove a working copy", e);
    }
  }

  #of(comparisonId: string) {
    return [...this.#runs.values()].filter((m) => m.run.comparisonId === comparisonId);
  }
}

export const activeRuns = (deps: RunDeps) => new ActiveRuns(deps);
