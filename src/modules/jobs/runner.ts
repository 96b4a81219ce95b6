// Running jobs: handlers per kind, one attempt under a lease renewed by heartbeats, and two ways to
// drive them — `JobRunner`, the worker loop that polls for due jobs, and `drain`, which works the
// queue until the given jobs are settled (a caller that wants the outcome, e.g. a test or a digest
// pass). Both claim through the same atomic statement, so any number of them may run, in any
// number of processes sharing the database, and a job is still completed once.

import { hostname } from "node:os";
import type { ClaimedJob, JobRow } from "./model";
import type { JobsService } from "./service";

export interface JobContext {
  job: ClaimedJob;
  /** The time the attempt runs at (epoch ms). */
  at: number;
  /** This is the last attempt: a failure makes the job dead. */
  final: boolean;
  /** Aborted when the lease was lost: another worker may be running the job now. */
  signal: AbortSignal;
}

export interface JobHandler<P = any> {
  run(payload: P, ctx: JobContext): unknown;
  /** How long to wait after failed attempt `attempt` (1-based) before the next. */
  backoff?(attempt: number): number;
  /** The job is dead: out of attempts, or its last lease ran out. */
  dead?(job: JobRow): unknown;
}

export type JobHandlers = Record<string, JobHandler>;

/** A failure that retrying will not fix: the job goes dead at once. */
export class GiveUp extends Error {}

/** 1 s, 2 s, 4 s … capped at an hour. */
export const exponentialBackoff =
  (baseMs = 1_000, capMs = 3_600_000) =>
  (attempt: number): number =>
    Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));

export const DEFAULT_LEASE_MS = 60_000;

export function workerName(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

export interface AttemptOutcome {
  id: string;
  /** lost: the lease was taken by another worker before this attempt finished; nothing was recorded. */
  state: "done" | "failed" | "dead" | "lost";
  value?: unknown;
  error?: string;
}

interface AttemptOptions {
  queue: JobsService;
  handlers: JobHandlers;
  leaseMs: number;
  /** The attempt's time: the claim's, or a drain's own time line. */
  at: number;
  /** When the attempt ends (its completion's time, and where a retry's backoff counts from); `at` when left out. */
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
}

/** Notifies the kind's handler of jobs that went dead while no attempt of theirs was running (lease ran out). */
export async function reportExpired(expired: JobRow[], handlers: JobHandlers, log?: (msg: string, err?: unknown) => void) {
  for (const job of expired) {
    if (job.state !== "dead") continue;
    try {
      await handlers[job.kind]?.dead?.(job);
    } catch (e) {
      log?.(`job ${job.id} (${job.kind}): the dead hook failed`, e);
    }
  }
}

/** Runs one claimed job: heartbeats while it runs, then done, failed with backoff, or dead. */
export async function runAttempt(job: ClaimedJob, opts: AttemptOptions): Promise<AttemptOutcome> {
  const { queue, leaseMs } = opts;
  const handler = opts.handlers[job.kind];
  const abort = new AbortController();
  const beat = setInterval(
    () => {
      // Not awaited: the timer keeps its beat. A heartbeat that fails (the database busy or out of
      // reach) is logged; the lease then runs out on its own, as it would if this process stopped.
      void queue
        .heartbeat(job, leaseMs, Math.max(queue.now(), opts.at))
        .then((held) => {
          if (!held) abort.abort();
        })
        .catch((e: unknown) => opts.log?.(`job ${job.id} (${job.kind}): the heartbeat failed`, e));
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  try {
    if (!handler) throw new GiveUp(`No handler for jobs of kind ${job.kind}`);
    const payload = JSON.parse(job.payload);
    const value = await handler.run(payload, { job, at: opts.at, final: job.attempts >= job.max_attempts, signal: abort.signal });
    if (!(await queue.complete(job, opts.now?.() ?? opts.at))) {
      opts.log?.(`job ${job.id} (${job.kind}) finished after its lease was taken; the other attempt counts`);
      return { id: job.id, state: "lost" };
    }
    return { id: job.id, state: "done", value };
  } catch (err) {
    const retryIn = handler?.backoff?.(job.attempts) ?? exponentialBackoff()(job.attempts);
    const row = await queue.fail(job, err, retryIn, { giveUp: err instanceof GiveUp, at: opts.now?.() ?? opts.at });
    const error = err instanceof Error ? err.message : String(err);
    if (!row) return { id: job.id, state: "lost", error };
    if (row.state === "dead") {
      try {
        await handler?.dead?.(row);
      } catch (e) {
        opts.log?.(`job ${job.id} (${job.kind}): the dead hook failed`, e);
      }
    }
    return { id: job.id, state: row.state === "dead" ? "dead" : "failed", error };
  } finally {
    clearInterval(beat);
  }
}

export interface DrainOptions {
  queue: JobsService;
  handlers: JobHandlers;
  /** Settle these jobs (done or dead); without, until nothing of these kinds is left to run. */
  ids?: readonly string[];
  /** Run what is due now and return, instead of waiting for retries. */
  dueOnly?: boolean;
  /** Waits until a retry is due. Time on the drain's line moves by what it waited, so a test's sleep that returns at once still sees every retry. */
  sleep?: (ms: number) => Promise<void>;
  /** Jobs claimed side by side in one round. */
  concurrency?: number;
  leaseMs?: number;
  worker?: string;
  /** How often to look again while a job is held by another worker. */
  pollMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

/**
 * Works the queue for `handlers`' kinds until `ids` are settled (or nothing is left), returning the
 * outcome of each attempt it ran, latest last. The drain keeps its own time line: each round runs at
 * one instant, and waiting for a retry moves the line to when it is due.
 */
export async function drain(opts: DrainOptions): Promise<AttemptOutcome[]> {
  const { queue, handlers } = opts;
  const kinds = Object.keys(handlers);
  const sleep = opts.sleep ?? ((ms: number) => Bun.sleep(ms));
  const worker = opts.worker ?? workerName();
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  const concurrency = opts.concurrency ?? 4;
  const outcomes: AttemptOutcome[] = [];
  const settled = async () => {
    for (const id of opts.ids ?? []) if (!["done", "dead"].includes((await queue.get(id))?.state ?? "done")) return false;
    return true;
  };
  let line = queue.now();
  for (;;) {
    if (opts.ids && (await settled())) return outcomes;
    const at = Math.max(queue.now(), line);
    const claimed: ClaimedJob[] = [];
    while (claimed.length < concurrency) {
      const { job, expired } = await queue.claim(kinds, worker, leaseMs, at);
      await reportExpired(expired, handlers, opts.log);
      if (!job) break;
      claimed.push(job);
    }
    if (claimed.length > 0) {
      outcomes.push(...(await Promise.all(claimed.map((job) => runAttempt(job, { queue, handlers, leaseMs, at, log: opts.log })))));
      line = at;
      continue;
    }
    if (opts.dueOnly) return outcomes;
    const { due, lease } = await queue.nextWake(kinds);
    if (due !== null) {
      // A retry is waiting: wait for it on this drain's time line, from the round that failed it
      // (so the wait is the backoff itself; in real time it ends after the job is due, never before).
      await sleep(Math.max(0, due - line));
      line = Math.max(line, due);
    } else if (lease !== null) {
      // Held by another worker: look again in real time until it finishes or its lease runs out.
      await Bun.sleep(Math.min(opts.pollMs ?? 250, Math.max(1, lease - at + 1)));
    } else return outcomes;
  }
}

export interface JobRunnerOptions {
  queue: JobsService;
  handlers: JobHandlers;
  worker?: string;
  /** Attempts running at once in this process. */
  concurrency?: number;
  /** Longest wait between looks at the table: jobs enqueued by other processes are seen within it. */
  pollMs?: number;
  leaseMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

/** The worker loop: claims due jobs up to its concurrency, sleeps until the next is due (or a poke). */
export class JobRunner {
  readonly worker: string;
  #opts: JobRunnerOptions;
  #running = false;
  #active = new Set<Promise<unknown>>();
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;
  #lastPrune = 0;
  #listening: Promise<{ unlisten(): Promise<void> }> | null | undefined = null;

  constructor(opts: JobRunnerOptions) {
    this.#opts = opts;
    this.worker = opts.worker ?? workerName();
  }

  get kinds(): string[] {
    return Object.keys(this.#opts.handlers);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run().catch((e) => this.#opts.log?.("job runner stopped on an error", e));
    // Jobs enqueued by other processes (PostgreSQL): claimed at once, not at the next poll. A lost
    // notification costs at most the poll.
    const kinds = new Set(this.kinds);
    this.#listening = this.#opts.queue.onEnqueued?.((kind) => {
      if (kinds.has(kind)) this.poke();
    });
    this.#listening?.catch((e: unknown) => this.#opts.log?.("job runner: listening for new jobs failed; polling instead", e));
  }

  /** Something was enqueued: look now instead of at the next poll. */
  poke(): void {
    this.#wake?.();
  }

  /** Stops claiming and waits for the attempts in flight (an unfinished one is left to its lease). */
  async stop(): Promise<void> {
    this.#running = false;
    const listening = this.#listening;
    this.#listening = null;
    if (listening) await (await listening.catch(() => null))?.unlisten().catch(() => {});
    this.poke();
    await this.#loop;
    await Promise.all([...this.#active]);
  }

  async #run(): Promise<void> {
    const { queue, handlers, log } = this.#opts;
    const kinds = this.kinds;
    const concurrency = this.#opts.concurrency ?? 2;
    const pollMs = this.#opts.pollMs ?? 1_000;
    const leaseMs = this.#opts.leaseMs ?? DEFAULT_LEASE_MS;
    while (this.#running) {
      const woken = new Promise<void>((r) => (this.#wake = r));
      try {
        while (this.#active.size < concurrency) {
          const at = queue.now();
          const { job, expired } = await queue.claim(kinds, this.worker, leaseMs, at);
          await reportExpired(expired, handlers, log);
          if (!job) break;
          const p: Promise<unknown> = runAttempt(job, { queue, handlers, leaseMs, at, now: queue.now, log })
            .catch((e) => log?.(`job ${job.id} (${job.kind}) broke the runner`, e))
            .finally(() => {
              this.#active.delete(p);
              this.poke();
            });
          this.#active.add(p);
        }
        if (queue.now() - this.#lastPrune > 3_600_000) {
          this.#lastPrune = queue.now();
          await queue.prune();
        }
      } catch (e) {
        // A busy or unreachable database: try again at the next poll.
        log?.("job runner: claiming failed", e);
      }
      let wait = pollMs;
      if (this.#active.size < concurrency) {
        try {
          const { due, lease } = await queue.nextWake(kinds);
          for (const t of [due, lease === null ? null : lease + 1]) if (t !== null) wait = Math.min(wait, Math.max(1, t - queue.now()));
        } catch (e) {
          // As a failed claim: the next look is at the poll.
          log?.("job runner: reading the next due time failed", e);
        }
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([woken, new Promise<void>((r) => (timer = setTimeout(r, wait)))]);
      clearTimeout(timer);
    }
  }
}
