// Alert rules per comparison and their delivery. Ownership is the caller's comparison lookup (the
// owner is the workspace), so another workspace's comparison or alert id answers 404 like
// everywhere else. Each delivery is a job
// (`watch.alert`): it survives a restart, a failed attempt is retried after the backoff, and after
// the last attempt the job is dead (the console lists it and can retry it).

import type { SqlDb } from "#server/db/sql";
import { badRequest, conflict, notFound } from "#server/http/errors";
import { newId, nowIso } from "#server/lib/ids";
import type { Mailer } from "#server/modules/admin/mailer";
import { checkTargetUrl, type Resolver } from "#server/modules/capture/public";
import { filterChanges } from "#server/modules/changes/public";
import { emailMessage, webhookBody, type AlertContext } from "./message";
import type { TargetChanges } from "#server/modules/changes/model";
import type { AlertBody, AlertView, DeliveryView } from "./model";
import { alertsRepository, isMembersRule, MEMBERS_DESTINATION, toAlertView, type AlertRuleRow } from "./repository";
import { DEFAULT_BACKOFF_MS, type RetryOptions } from "./retry";
import { drain, jobsService, type JobHandler, type JobsService } from "#server/modules/jobs/public";
import { DeliveryError, postWebhook } from "./webhook";

export interface AlertsServiceDeps {
  db: SqlDb;
  ownsComparison(comparisonId: string, ownerId: string): Promise<boolean>;
  allowPrivateTargets: boolean;
  /** Without one (no SMTP_URL), e-mail rules cannot be created and e-mail deliveries fail with a reason. */
  mailer?: Mailer;
  resolve?: Resolver;
  retry?: RetryOptions;
  webhookTimeoutMs?: number;
  now?: () => number;
  /** The jobs queue (the app's); without, one on `db`. */
  jobs?: JobsService;
}

export const ALERT_JOB = "watch.alert";

/** What one delivery job carries: the rule and the message, filtered for the rule when queued. */
interface AlertJob {
  alertId: string;
  comparison: { id: string; name: string };
  run: { id: string; number: number | null };
  link: string;
  targets: TargetChanges[];
}

export const MAX_ALERTS_PER_COMPARISON = 10;
const NOT_FOUND = "Comparison not found";
export const EMAIL_UNAVAILABLE = "E-mail alerts are not available: this server has no SMTP_URL configured";
export const NO_RECIPIENTS = "No member of the workspace receives alerts";

export interface DispatchInput {
  ownerId: string;
  comparison: { id: string; name: string };
  run: { id: string; number: number | null };
  /** Absolute URL of the change view for this run. */
  link: string;
  targets: TargetChanges[];
}

/** Each rule's delivery job, or null where the rule had nothing to send (with why, when it is not the filter). */
export type QueuedAlerts = { alertId: string; job: string | null; lastError?: string }[];

export interface DispatchResult {
  alertId: string;
  status: "sent" | "failed" | "skipped";
  attempts: number;
  lastError: string | null;
}

export function alertsService(deps: AlertsServiceDeps) {
  const repo = alertsRepository(deps.db);
  const now = deps.now ?? Date.now;
  const jobs = deps.jobs ?? jobsService({ db: deps.db, now });
  const backoff = deps.retry?.backoffMs ?? DEFAULT_BACKOFF_MS;
  const owned = async (ownerId: string, comparisonId: string) => {
    if (!(await deps.ownsComparison(comparisonId, ownerId))) throw notFound(NOT_FOUND);
  };

  /** Sends the alert; false when a members rule has no one to send it to (nothing to retry). */
  async function deliver(rule: AlertRuleRow, ctx: AlertContext): Promise<boolean> {
    if (rule.channel === "webhook") {
      await postWebhook(rule.destination, webhookBody(ctx), {
        allowPrivate: deps.allowPrivateTargets,
        resolve: deps.resolve,
        timeoutMs: deps.webhookTimeoutMs,
      });
      return true;
    }
    if (!deps.mailer) throw new DeliveryError(EMAIL_UNAVAILABLE);
    // Members are read now, not when the rule was made: who opted out or left since gets nothing.
    const to = isMembersRule(rule) ? await repo.recipients(rule.owner_id) : [rule.destination];
    if (to.length === 0) return false;
    const { subject, text } = emailMessage(ctx);
    await deps.mailer.send({ to, subject, text });
    return true;
  }

  /** The delivery log's line for a job's outcome (a rule deleted meanwhile has no log left to write to). */
  async function logDelivery(p: AlertJob, sent: boolean, attempts: number, lastError: string | null): Promise<void> {
    const rule = await repo.get(p.alertId);
    if (!rule) return;
    const at = nowIso(now());
    await repo.logDelivery({
      id: newId(),
      alertId: rule.id,
      comparisonId: p.comparison.id,
      ownerId: rule.owner_id,
      runId: p.run.id,
      status: sent ? "sent" : "failed",
      attempts,
      lastError,
      sentAt: sent ? at : null,
      at,
    });
  }

  /**
   * After a run: every rule of the comparison gets the changes that pass its filter (none → no
   * message), as one delivery job per rule. Called inside the transaction that stores the run's
   * changes, the jobs are stored with them or not at all, so a process that stops afterwards
   * leaves them to any job runner. Runs nothing: `settle` does.
   */
  async function queue(input: DispatchInput): Promise<QueuedAlerts> {
    const queued: QueuedAlerts = [];
    for (const rule of await repo.list(input.comparison.id, input.ownerId)) {
      const view = toAlertView(rule);
      const targets = input.targets
        .map((t) => ({ ...t, changes: filterChanges(t.changes, view.minSeverity, view.kinds) }))
        .filter((t) => t.changes.length > 0);
      if (targets.length === 0) {
        queued.push({ alertId: rule.id, job: null });
        continue;
      }
      const payload: AlertJob = { alertId: rule.id, comparison: input.comparison, run: input.run, link: input.link, targets };
      // A members rule with nobody to mail: the log says so, and nothing is queued to retry.
      if (deps.mailer && isMembersRule(rule) && (await repo.recipients(rule.owner_id)).length === 0) {
        await logDelivery(payload, false, 0, NO_RECIPIENTS);
        queued.push({ alertId: rule.id, job: null, lastError: NO_RECIPIENTS });
        continue;
      }
      const job = await jobs.enqueue({
        kind: ALERT_JOB,
        payload,
        ownerId: input.ownerId,
        maxAttempts: backoff.length + 1,
        // The same run's changes reach a rule once, however often they are handed over.
        dedupeKey: `${ALERT_JOB}:${rule.id}:${input.run.id}`,
      });
      queued.push({ alertId: rule.id, job });
    }
    return queued;
  }

  /** Runs the queued deliveries; settles once each is sent or dead, each logged with its attempts and last error. */
  async function settle(queued: QueuedAlerts): Promise<DispatchResult[]> {
    const ids = queued.flatMap((d) => (d.job ? [d.job] : []));
    // Deliveries run side by side: a receiver that is down (minutes of retries) must not hold back the others.
    if (ids.length > 0)
      await drain({ queue: jobs, handlers: { [ALERT_JOB]: handler }, ids, sleep: deps.retry?.sleep, concurrency: ids.length });
    const results: DispatchResult[] = [];
    for (const { alertId, job, lastError } of queued) {
      const row = job ? await jobs.get(job) : null;
      if (!row) results.push({ alertId, status: "skipped", attempts: 0, lastError: lastError ?? null });
      else results.push({ alertId, status: row.state === "done" ? "sent" : "failed", attempts: row.attempts, lastError: row.last_error });
    }
    return results;
  }

  const handler: JobHandler<AlertJob> = {
    async run(p, ctx) {
      // A rule deleted since is not delivered to.
      const rule = await repo.get(p.alertId);
      if (!rule) return "rule deleted";
      if (!(await deliver(rule, { comparison: p.comparison, run: p.run, link: p.link, targets: p.targets }))) {
        await logDelivery(p, false, ctx.job.attempts, NO_RECIPIENTS);
        return "no recipients";
      }
      await logDelivery(p, true, ctx.job.attempts, ctx.job.last_error);
      return "sent";
    },
    backoff: (attempt) => backoff[Math.min(attempt, backoff.length) - 1] ?? 0,
    dead: (job) => logDelivery(JSON.parse(job.payload) as AlertJob, false, job.attempts, job.last_error),
  };

  return {
    repo,
    /** Checks a webhook URL as a capture URL is checked when added (DNS included): a clear 400 now, not a failed delivery later. */
    async create(ownerId: string, comparisonId: string, body: AlertBody): Promise<AlertView> {
      await owned(ownerId, comparisonId);
      let destination: string;
      if (body.channel === "webhook") {
        destination = (await checkTargetUrl(body.url, { allowPrivate: deps.allowPrivateTargets, resolve: deps.resolve })).href;
      } else {
        if (!deps.mailer) throw badRequest(EMAIL_UNAVAILABLE);
        destination = body.channel === "email" ? body.email.trim() : MEMBERS_DESTINATION;
      }
      if ((await repo.countFor(comparisonId)) >= MAX_ALERTS_PER_COMPARISON)
        throw conflict(`A comparison can have up to ${MAX_ALERTS_PER_COMPARISON} alerts`);
      const id = newId();
      const kinds = [...new Set(body.kinds)];
      await repo.insert({
        id,
        comparisonId,
        ownerId,
        channel: body.channel === "webhook" ? "webhook" : "email",
        destination,
        minSeverity: body.minSeverity,
        kinds,
        at: nowIso(now()),
      });
      return toAlertView((await repo.list(comparisonId, ownerId)).find((r) => r.id === id)!);
    },
    async list(ownerId: string, comparisonId: string): Promise<AlertView[]> {
      await owned(ownerId, comparisonId);
      return (await repo.list(comparisonId, ownerId)).map(toAlertView);
    },
    async remove(ownerId: string, alertId: string): Promise<void> {
      if (!(await repo.remove(alertId, ownerId))) throw notFound("Alert not found");
    },
    async deliveries(ownerId: string, comparisonId: string): Promise<DeliveryView[]> {
      await owned(ownerId, comparisonId);
      return repo.deliveries(comparisonId, ownerId);
    },
    queue,
    settle,
    /** A run's alerts queued and delivered here and now. */
    dispatch: async (input: DispatchInput): Promise<DispatchResult[]> => settle(await queue(input)),
    /** Runs delivery jobs, here or in any worker. */
    handler,
  };
}
