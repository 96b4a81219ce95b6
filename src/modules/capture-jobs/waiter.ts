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
  /** Past this, the wait ends with a reason (no worker took the job); the run's own limit is usually shorter. */
  maxWaitMs: number;
  log?: (msg: string, err?: unknown) => void;
  /** What the reasons call the work: a capture (default) or a pair's scoring. */
  words?: Words;
}

/** How the reasons a user reads name the work a job does. */
export interface Words {
  /** "The page could not be captured" */
  failed: string;
  /** "the capture worker" */
  worker: string;
  /** "this page" */
  work: string;
}

export const CAPTURE_WORDS: Words = { failed: "The page could not be captured", worker: "the capture worker", work: "this page" };

/** Why a dead job has no answer, in words a user reads beside the page. */
export function deadReason(job: JobRow, words: Words = CAPTURE_WORDS): string {
  // A lease that ran out names a worker process, which means nothing to the user: say what happened.
  const why = !job.last_error || job.last_error.startsWith("The lease of") ? `${words.worker} stopped before it finished` : job.last_error;
  return `${words.failed}: ${why} (${job.attempts} ${job.attempts === 1 ? "attempt" : "attempts"})`;
}

/** Resolves with the job's answer, or why there is none; `onStage` hears the stages the worker reports meanwhile. */
export async function waitForAnswer(id: string, deps: WaitDeps, onStage?: (stage: string) => void): Promise<Outcome> {
  const words = deps.words ?? CAPTURE_WORDS;
  const worker = words.worker.charAt(0).toUpperCase() + words.worker.slice(1);
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
  const deadline = Date.now() + deps.maxWaitMs;
  try {
    for (;;) {
      due = false;
      try {
        const row = await deps.repo.get(id);
        if (row) return { row };
        const job = await deps.jobs.get(id);
        if (!job) return { reason: `${words.failed}: its job was removed before it finished` };
        if (job.state === "dead") return { reason: deadReason(job, words) };
        // The answer is written before the job is done: done with none now means it is gone (pruned, or read twice).
        if (job.state === "done") {
          const late = await deps.repo.get(id);
          return late ? { row: late } : { reason: `${worker}'s answer was lost` };
        }
      } catch (e) {
        // The database out of reach for a moment: look again at the next poll, until the deadline.
        deps.log?.(`capture job ${id}: reading its outcome failed`, e);
      }
      if (due) continue;
      if (Date.now() > deadline) return { reason: `No ${words.worker.replace(/^the /, "")} finished ${words.work} in time` };
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, Math.max(1, Math.min(deps.pollMs, deadline - Date.now() + 1)));
      });
      wake = null;
      clearTimeout(timer);
    }
  } finally {
    unwatch();
  }
}
