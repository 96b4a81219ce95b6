// Starts scheduled runs. The due time of every schedule lives in the database (next_run_at), so
// the rules survive restarts by construction:
// - catch-up once: a slot missed while the server was down is still due at boot; it starts one
//   run and the next slot is computed from *now*, so ten missed slots never become ten runs;
// - never overlap: a slot that comes due while the comparison's previous run is still going is
//   skipped, logged and recorded on the row, and the schedule moves on to its next slot;
// - fair: due comparisons are handed over interleaved by owner; the capture queue behind
//   `startRun` is fair between owners as well.
// Time comes from an injectable clock so tests can drive it.

import { nowIso } from "#server/lib/ids";
import { cronFor, nextRunAfter } from "./cron";
import type { ScheduleRepository, ScheduleRow } from "./repository";

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.(); // a pending wake-up must not keep a stopping process alive
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export type ScheduleEvent =
  | { type: "started"; comparisonId: string; ownerId: string; slot: string; at: string; nextRunAt: string | null; missedSlots: number }
  | { type: "skipped"; comparisonId: string; ownerId: string; slot: string; at: string; nextRunAt: string | null; reason: string }
  | { type: "deferred"; comparisonId: string; ownerId: string; slot: string; at: string; nextRunAt: string; reason: string };

/**
 * Thrown by `startRun` when the run cannot start *yet* (the capture queue is full): the slot is
 * tried again after `retryAfterMs` instead of being skipped until the next one, which may be a
 * day or a week away.
 */
export class DeferRun extends Error {
  constructor(
    message: string,
    readonly retryAfterMs = 60_000,
  ) {
    super(message);
  }
}

export interface SchedulerDeps {
  repo: ScheduleRepository;
  /** Whether the comparison has a run in progress (queued or capturing or analysing). */
  isRunning(comparisonId: string): boolean | Promise<boolean>;
  /** Creates the run and puts it in the capture queue; a throw (or rejection) skips the slot with its message. */
  startRun(comparisonId: string, trigger: "schedule"): unknown;
  clock?: Clock;
  log?(event: ScheduleEvent): void;
  /** Longest sleep between checks, so schedules saved without `poke()` and clock jumps are noticed. */
  maxSleepMs?: number;
}

export const SKIP_STILL_RUNNING = "the previous run was still in progress";
/** Counting missed slots is only for the log; past this many the count says "at least". */
const MISSED_COUNT_CAP = 1000;
const RETRY_AFTER_FAILURE_MS = 5_000;

/** Round-robin over owners, each owner's rows kept in due order. */
export function interleaveByOwner(rows: ScheduleRow[]): ScheduleRow[] {
  const byOwner = new Map<string, ScheduleRow[]>();
  for (const r of rows) {
    const list = byOwner.get(r.owner_id);
    if (list) list.push(r);
    else byOwner.set(r.owner_id, [r]);
  }
  const lists = [...byOwner.values()];
  const out: ScheduleRow[] = [];
  for (let i = 0; out.length < rows.length; i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

export class Scheduler {
  private readonly clock: Clock;
  private readonly maxSleepMs: number;
  private timer: unknown = null;
  private running = false;
  private ticking: Promise<ScheduleEvent[]> | null = null;
  private again = false;

  constructor(private readonly deps: SchedulerDeps) {
    this.clock = deps.clock ?? systemClock;
    this.maxSleepMs = deps.maxSleepMs ?? 60_000;
  }

  /** Boot: handles whatever came due while the server was down, then keeps watching. */
  start(): Promise<ScheduleEvent[]> {
    this.running = true;
    return this.runTick();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** A schedule was saved or removed: re-plan the wake-up now rather than at the next check. */
  poke(): void {
    if (this.running) void this.runTick();
  }

  /** Starts or skips every due schedule once. Concurrent calls share one pass (plus one more if asked meanwhile). */
  tick(): Promise<ScheduleEvent[]> {
    return this.runTick();
  }

  private runTick(): Promise<ScheduleEvent[]> {
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      const events: ScheduleEvent[] = [];
      let failed = false;
      try {
        do {
          this.again = false;
          events.push(...(await this.pass()));
        } while (this.again);
      } catch (err) {
        failed = true;
        throw err;
      } finally {
        this.ticking = null;
        // After a failure (database busy, disk full) the due rows are still due: back off instead of spinning.
        await this.arm(failed ? RETRY_AFTER_FAILURE_MS : 0);
      }
      return events;
    })();
    return this.ticking;
  }

  private async pass(): Promise<ScheduleEvent[]> {
    const events: ScheduleEvent[] = [];
    const now = this.clock.now();
    for (const row of interleaveByOwner(await this.deps.repo.due(nowIso(now)))) {
      const event = await this.handle(row, now);
      if (!event) continue;
      events.push(event);
      this.deps.log?.(event);
    }
    return events;
  }

  private async handle(row: ScheduleRow, now: number): Promise<ScheduleEvent | null> {
    const slot = row.next_run_at!;
    const at = nowIso(now);
    const next = this.nextSlot(row, now);
    const base = { comparisonId: row.comparison_id, ownerId: row.owner_id, slot, at, nextRunAt: next };
    let skipReason: string | null = (await this.deps.isRunning(row.comparison_id)) ? SKIP_STILL_RUNNING : null;
    if (skipReason === null) {
      try {
        await this.deps.startRun(row.comparison_id, "schedule");
      } catch (err) {
        if (err instanceof DeferRun) {
          // Retry soon, but never later than the schedule's own next slot.
          const retry = now + Math.max(1_000, err.retryAfterMs);
          const nextRunAt = nowIso(next === null ? retry : Math.min(retry, Date.parse(next)));
          const reason = `deferred: ${err.message}`;
          if (
            !(await this.deps.repo.settle({
              comparisonId: row.comparison_id,
              slot,
              nextRunAt,
              at: nowIso(this.clock.now()),
              skipReason: reason,
            }))
          )
            return null;
          return { type: "deferred", ...base, nextRunAt, reason };
        }
        skipReason = `the run could not start: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    // `at` is re-read: startRun may take a moment, and last_run_at should say when it happened.
    const settledAt = nowIso(this.clock.now());
    if (skipReason !== null) {
      if (!(await this.deps.repo.settle({ comparisonId: row.comparison_id, slot, nextRunAt: next, at: settledAt, skipReason })))
        return null;
      return { type: "skipped", ...base, reason: skipReason };
    }
    await this.deps.repo.settle({ comparisonId: row.comparison_id, slot, nextRunAt: next, at: settledAt, ranAt: at });
    return { type: "started", ...base, missedSlots: this.missedSlots(row, now) };
  }

  private nextSlot(row: ScheduleRow, now: number): string | null {
    try {
      const next = nextRunAfter(row.cron, row.timezone, new Date(now));
      return next ? nowIso(next.getTime()) : null;
    } catch {
      // A zone the runtime no longer knows (tzdata changed): stop rather than fire every tick.
      return null;
    }
  }

  /** Slots that passed before this one ran late (0 when it ran on time). */
  private missedSlots(row: ScheduleRow, now: number): number {
    const slot = Date.parse(row.next_run_at!);
    if (now - slot < 60_000) return 0;
    try {
      const cron = cronFor(row.cron, row.timezone);
      let count = 0;
      for (let d = cron.nextRun(new Date(slot)); d && d.getTime() <= now && count < MISSED_COUNT_CAP; d = cron.nextRun(d)) count++;
      return count;
    } catch {
      return 0;
    }
  }

  private async arm(minWaitMs: number): Promise<void> {
    if (!this.running) return;
    let wait: number;
    try {
      const earliest = await this.deps.repo.earliestNext();
      wait = earliest === null ? this.maxSleepMs : Date.parse(earliest) - this.clock.now();
    } catch {
      // The database could not say (busy, out of reach): look again soon rather than never.
      wait = RETRY_AFTER_FAILURE_MS;
    }
    // Stopped, or armed by another pass, while the read was under way: the latest arm wins.
    if (!this.running) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        void this.runTick();
      },
      Math.max(minWaitMs, Math.min(this.maxSleepMs, wait)),
    );
  }
}
