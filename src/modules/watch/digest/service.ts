// The optional digest: per user, daily (08:00) or weekly (Monday 08:00) in the user's zone, one
// e-mail summing up every watched comparison of the workspaces whose alerts the user receives
// (workspace_members.alerts; a personal workspace's too) — its runs, skipped slots, alerts sent or failed and
// the changes stored for the period. The due time lives in the database, so a digest that came
// due while the server was down goes out once at boot. Each send is a job (`watch.digest`, one live
// per user): a refused send is retried every 15 minutes, and after the last attempt the job is dead
// (the console lists it) and the digest waits for its next regular slot.

import type { SqlDb } from "#server/db/sql";
import { badRequest } from "#server/http/errors";
import { nowIso } from "#server/lib/ids";
import type { Mailer } from "#server/modules/admin/mailer";
import type { ChangeHistory, RecentChange } from "#server/modules/changes/public";
import { checkSchedule, nextRunAfter } from "../schedule/cron";
import { systemClock, type Clock } from "../schedule/scheduler";
import type { DigestBody, DigestView } from "./model";
import { drain, jobsService, type JobHandler, type JobsService } from "#server/modules/jobs/public";
import { digestRepository, type WatchedRow } from "./repository";

export const DIGEST_CRON = { daily: "0 8 * * *", weekly: "0 8 * * 1" } as const;
const PERIOD_MS = { daily: 86_400_000, weekly: 7 * 86_400_000 } as const;
/** A failed send is tried again this much later (never past the next regular slot). */
export const DIGEST_RETRY_MS = 15 * 60_000;
/** Two hours of retries, then the period's digest is given up. */
export const DIGEST_MAX_ATTEMPTS = 8;
export const DIGEST_JOB = "watch.digest";
export const DIGEST_UNAVAILABLE = "The digest is sent by e-mail, and this server has no SMTP_URL configured";
const MAX_CHANGES_LISTED = 5;

export interface DigestDeps {
  db: SqlDb;
  mailer?: Mailer;
  /** The stored changes; without it the digest lists runs and alerts only. */
  changes?: ChangeHistory;
  publicUrl: string;
  now?: () => number;
  clock?: Clock;
  log?: (msg: string, err?: unknown) => void;
  maxSleepMs?: number;
  /** The jobs queue (the app's); without, one on `db`. */
  jobs?: JobsService;
}

export interface DigestOutcome {
  userId: string;
  status: "sent" | "failed" | "nothing-watched";
  error?: string;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function composeDigest(input: {
  frequency: "daily" | "weekly";
  since: string;
  until: string;
  watched: WatchedRow[];
  changes: RecentChange[];
  publicUrl: string;
}): { subject: string; text: string } {
  const period = input.frequency === "daily" ? "the last day" : "the last week";
  const byComparison = new Map<string, RecentChange[]>();
  for (const c of input.changes) byComparison.set(c.comparisonId, [...(byComparison.get(c.comparisonId) ?? []), c]);
  const total = input.changes.length;
  const lines = [
    `Design Intel ${input.frequency} digest: ${count(input.watched.length, "watched comparison")}, ${count(total, "change")} in ${period}`,
    "",
  ];
  // With comparisons from more than one workspace, each says whose it is.
  const several = new Set(input.watched.map((w) => w.owner_id)).size > 1;
  for (const w of input.watched) {
    const changes = byComparison.get(w.id) ?? [];
    lines.push(`${w.name.replace(/[\r\n]+/g, " ")}${several ? ` (${w.workspace.replace(/[\r\n]+/g, " ")})` : ""}`);
    const ran = w.last_run_at && w.last_run_at >= input.since ? `last scheduled run ${w.last_run_at}` : "no scheduled run in this period";
    lines.push(
      `  ${ran}; now ${w.status}${w.completed_at ? ` (last completed ${w.completed_at})` : ""}; next run ${w.next_run_at ?? "none"} (${w.cron}, ${w.timezone})`,
    );
    if (w.last_skip_at && w.last_skip_at >= input.since && w.last_skip_reason) lines.push(`  a slot was skipped: ${w.last_skip_reason}`);
    if (w.sent || w.failed) lines.push(`  alerts: ${w.sent} sent, ${w.failed} failed`);
    if (changes.length === 0) lines.push("  no changes");
    else {
      const kinds = new Map<string, number>();
      for (const c of changes) kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
      lines.push(`  ${count(changes.length, "change")}: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(", ")}`);
      for (const c of changes.slice(0, MAX_CHANGES_LISTED)) lines.push(`    • ${c.label}: ${c.summary.replace(/[\r\n]+/g, " ")}`);
      if (changes.length > MAX_CHANGES_LISTED) lines.push(`    and ${changes.length - MAX_CHANGES_LISTED} more`);
    }
    lines.push(`  ${input.publicUrl.replace(/\/+$/, "")}/comparison?${new URLSearchParams({ id: w.id })}`, "");
  }
  lines.push(`You get this because the ${input.frequency} watch digest is on. Turn it off under Settings → Watch digest.`);
  return { subject: lines[0]!.slice(0, 200), text: lines.join("\n") };
}

export function digestService(deps: DigestDeps) {
  const repo = digestRepository(deps.db);
  const clock = deps.clock ?? (deps.now ? { ...systemClock, now: deps.now } : systemClock);
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err ?? ""));
  const maxSleepMs = deps.maxSleepMs ?? 60_000;
  const jobs = deps.jobs ?? jobsService({ db: deps.db, now: () => clock.now() });
  let timer: unknown = null;
  let running = false;
  let ticking: Promise<DigestOutcome[]> | null = null;

  const nextSlot = (frequency: "daily" | "weekly", timezone: string, after: number): string | null => {
    const d = nextRunAfter(DIGEST_CRON[frequency], timezone, new Date(after));
    return d ? nowIso(d.getTime()) : null;
  };

  const view = async (userId: string): Promise<DigestView> => {
    const r = await repo.find(userId);
    if (!r) return { frequency: "off", timezone: null, nextSendAt: null, lastSentAt: null, lastError: null };
    return {
      frequency: r.frequency,
      timezone: r.timezone,
      nextSendAt: r.next_send_at,
      lastSentAt: r.last_sent_at,
      lastError: r.last_error,
    };
  };

  /** One user's digest, due at the attempt's time; null when it is no longer due (the setting changed). */
  async function sendOne(userId: string, now: number): Promise<DigestOutcome | null> {
    const row = await repo.findDue(userId, nowIso(now));
    if (!row) return null;
    const slot = row.next_send_at!;
    const until = nowIso(now);
    const since = nowIso(now - PERIOD_MS[row.frequency]);
    const next = nextSlot(row.frequency, row.timezone, now);
    const watched = await repo.watched(row.user_id, since);
    if (watched.length === 0) {
      await repo.settle({ userId: row.user_id, slot, nextSendAt: next, sentAt: null, error: null, at: until });
      return { userId: row.user_id, status: "nothing-watched" };
    }
    try {
      if (!deps.mailer) throw new Error(DIGEST_UNAVAILABLE);
      const ids = new Set(watched.map((w) => w.id));
      const changes: RecentChange[] = [];
      // One workspace at a time, in the order the watched comparisons name them.
      for (const workspaceId of new Set(watched.map((w) => w.owner_id)))
        changes.push(
          ...((await deps.changes?.recentChanges(since, workspaceId)) ?? []).filter(
            (c) => c.ownerId === workspaceId && ids.has(c.comparisonId),
          ),
        );
      const { subject, text } = composeDigest({ frequency: row.frequency, since, until, watched, changes, publicUrl: deps.publicUrl });
      await deps.mailer.send({ to: [row.email], subject, text });
      await repo.settle({ userId: row.user_id, slot, nextSendAt: next, sentAt: nowIso(clock.now()), error: null, at: nowIso(clock.now()) });
      return { userId: row.user_id, status: "sent" };
    } catch (err) {
      // The setting shows the error and when the send is tried again (the job's retry, never past the next regular slot).
      const error = err instanceof Error ? err.message : String(err);
      const retry = now + DIGEST_RETRY_MS;
      const nextSendAt = nowIso(next === null ? retry : Math.min(retry, Date.parse(next)));
      await repo.settle({ userId: row.user_id, slot, nextSendAt, sentAt: null, error, at: nowIso(clock.now()) });
      log(`digest for ${row.user_id} failed (retry at ${nextSendAt})`, err);
      throw err;
    }
  }

  const handler: JobHandler<{ userId: string }> = {
    run: (p, ctx) => sendOne(p.userId, ctx.at),
    backoff: () => DIGEST_RETRY_MS,
    // Out of attempts: this period's digest is given up, and the next regular one is due as usual.
    async dead(job) {
      const { userId } = JSON.parse(job.payload) as { userId: string };
      const row = await repo.find(userId);
      if (!row?.next_send_at) return;
      const now = clock.now();
      await repo.settle({
        userId,
        slot: row.next_send_at,
        nextSendAt: nextSlot(row.frequency, row.timezone, now),
        sentAt: null,
        error: `Gave up after ${job.attempts} attempts: ${job.last_error ?? "unknown error"}`,
        at: nowIso(now),
      });
    },
  };

  async function arm(): Promise<void> {
    if (!running) return;
    let wait: number;
    try {
      const earliest = await repo.earliestNext();
      wait = earliest === null ? maxSleepMs : Date.parse(earliest) - clock.now();
    } catch (e) {
      // The database could not say (busy, out of reach): look again at the longest sleep.
      log("digest: reading the next due time failed", e);
      wait = maxSleepMs;
    }
    // Stopped, or armed again, while the read was under way: the latest arm wins.
    if (!running) return;
    if (timer !== null) clock.clearTimeout(timer);
    timer = clock.setTimeout(
      () => {
        timer = null;
        void tick().catch((e) => log("digest pass failed", e));
      },
      Math.max(1_000, Math.min(maxSleepMs, wait)),
    );
  }

  /** Queues every due digest (one live job per user) and runs the jobs that are due now. */
  function tick(): Promise<DigestOutcome[]> {
    if (ticking) return ticking;
    const pass = async () => {
      const now = clock.now();
      for (const row of await repo.due(nowIso(now)))
        await jobs.enqueue(
          {
            kind: DIGEST_JOB,
            payload: { userId: row.user_id },
            // The reader's personal workspace (it shares their id): their digest takes its turn as their own work.
            ownerId: row.user_id,
            maxAttempts: DIGEST_MAX_ATTEMPTS,
            dedupeKey: `${DIGEST_JOB}:${row.user_id}`,
          },
          now,
        );
      const outcomes = await drain({ queue: jobs, handlers: { [DIGEST_JOB]: handler }, dueOnly: true, log });
      const results: DigestOutcome[] = [];
      for (const o of outcomes) {
        if (o.state === "done") {
          if (o.value) results.push(o.value as DigestOutcome);
        } else if (o.state !== "lost") {
          const { userId } = JSON.parse((await jobs.get(o.id))?.payload ?? "{}") as { userId: string };
          results.push({ userId, status: "failed", error: o.error });
        }
      }
      return results;
    };
    // Cleared once the pass is over (never before `ticking` is assigned: the pass awaits first),
    // then armed before the pass's promise settles.
    ticking = (async () => {
      try {
        return await pass();
      } finally {
        ticking = null;
        await arm();
      }
    })();
    return ticking;
  }

  return {
    get: view,
    async put(userId: string, body: DigestBody): Promise<DigestView> {
      if (body.frequency === "off") {
        await repo.remove(userId);
        return view(userId);
      }
      if (!deps.mailer) throw badRequest(DIGEST_UNAVAILABLE);
      const checked = checkSchedule(DIGEST_CRON[body.frequency], body.timezone, new Date(clock.now()));
      if (!checked.ok) throw badRequest(checked.error);
      await repo.save(
        userId,
        body.frequency,
        checked.timezone,
        nextSlot(body.frequency, checked.timezone, clock.now()),
        nowIso(clock.now()),
      );
      await arm();
      return view(userId);
    },
    tick,
    /** Runs digest jobs, here or in any worker. */
    handler,
    start(): Promise<DigestOutcome[]> {
      running = true;
      return tick();
    },
    stop(): void {
      running = false;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
  };
}

export type DigestService = ReturnType<typeof digestService>;
