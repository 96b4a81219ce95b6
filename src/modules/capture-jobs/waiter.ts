// Waiting for a capture job's answer without holding a transaction: signals (signals.ts) say when to
// look, and a poll looks anyway (SQLite's only way; PostgreSQL's backstop for a lost notification).
// The answer is the job's capture_results row; a job that went dead has none and answers with why.
import type { JobRow, JobsService } from "#server/modules/jobs/public";
import type { CaptureResultRow } from "./model";
import type { CaptureResultsRepository } from "./repository";
import type { CaptureSignals } from "./signals";

export type Outcome = { row: CaptureResultRow } | { reason: string };

export interface WaitDeps {
  repo: CaptureResultsRepository;
  jobs: Pick<JobsService, "get">;
  signals: CaptureSignals;
  pollMs: number;
  log?: (msg: string, err?: unknown) => void;
}

/** Why a dead job has no answer, in words a user reads beside the page. */
export const deadReason = (job: JobRow) =>
  `The page could not be captured: ${job.last_error ?? "the capture workers gave up"} (${job.attempts} ${job.attempts === 1 ? "attempt" : "attempts"})`;

/** Resolves with the job's answer, or why there is none; `onStage` hears the stages the worker reports meanwhile. */
export async function waitForAnswer(id: string, deps: WaitDeps, onStage?: (stage: string) => void): Promise<Outcome> {
  // A signal that comes while a look is under way must not be missed: it leaves `due` set.
  let due = false;
  let wake: (() => void) | null = null;
  const unwatch = deps.signals.watch(id, (signal) => {
    if (signal.stage) onStage?.(signal.stage);
    if (signal.done) {
      due = true;
      wake?.();
    }
  });
  try {
    for (;;) {
      due = false;
      try {
        const row = await deps.repo.get(id);
        if (row) return { row };
        const job = await deps.jobs.get(id);
        if (!job) return { reason: "The page's capture job was removed before it finished" };
        if (job.state === "dead") return { reason: deadReason(job) };
        // The answer is written before the job is done: done with none now means it is gone (pruned, or read twice).
        if (job.state === "done") {
          const late = await deps.repo.get(id);
          return late ? { row: late } : { reason: "The capture worker's answer was lost" };
        }
      } catch (e) {
        // The database out of reach for a moment: look again at the next poll; the run's own limit bounds the wait.
        deps.log?.(`capture job ${id}: reading its outcome failed`, e);
      }
      if (due) continue;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, deps.pollMs);
      });
      wake = null;
      clearTimeout(timer);
    }
  } finally {
    unwatch();
  }
}
