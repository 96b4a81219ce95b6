// Alert rules per comparison and their delivery. Ownership is the caller's comparison lookup, so
// another user's comparison or alert id answers 404 like everywhere else.

import type { Db } from "#server/db/connection";
import { badRequest, conflict, notFound } from "#server/http/errors";
import { newId, nowIso } from "#server/lib/ids";
import type { Mailer } from "#server/modules/admin/mailer";
import { checkTargetUrl, type Resolver } from "#server/modules/capture/public";
import { filterChanges } from "#server/modules/changes/public";
import { emailMessage, webhookBody, type AlertContext } from "./message";
import type { TargetChanges } from "#server/modules/changes/model";
import type { AlertBody, AlertView, DeliveryView } from "./model";
import { alertsRepository, toAlertView, type AlertRuleRow } from "./repository";
import { withRetries, type RetryOptions } from "./retry";
import { DeliveryError, postWebhook } from "./webhook";

export interface AlertsServiceDeps {
  db: Db;
  ownsComparison(comparisonId: string, ownerId: string): boolean;
  allowPrivateTargets: boolean;
  /** Without one (no SMTP_URL), e-mail rules cannot be created and e-mail deliveries fail with a reason. */
  mailer?: Mailer;
  resolve?: Resolver;
  retry?: RetryOptions;
  webhookTimeoutMs?: number;
  now?: () => number;
}

export const MAX_ALERTS_PER_COMPARISON = 10;
const NOT_FOUND = "Comparison not found";
export const EMAIL_UNAVAILABLE = "E-mail alerts are not available: this server has no SMTP_URL configured";

export interface DispatchInput {
  ownerId: string;
  comparison: { id: string; name: string };
  run: { id: string; number: number | null };
  /** Absolute URL of the change view for this run. */
  link: string;
  targets: TargetChanges[];
}

export interface DispatchResult {
  alertId: string;
  status: "sent" | "failed" | "skipped";
  attempts: number;
  lastError: string | null;
}

export function alertsService(deps: AlertsServiceDeps) {
  const repo = alertsRepository(deps.db);
  const now = deps.now ?? Date.now;
  const owned = (ownerId: string, comparisonId: string) => {
    if (!deps.ownsComparison(comparisonId, ownerId)) throw notFound(NOT_FOUND);
  };

  async function deliver(rule: AlertRuleRow, ctx: AlertContext): Promise<void> {
    if (rule.channel === "webhook") {
      await postWebhook(rule.destination, webhookBody(ctx), {
        allowPrivate: deps.allowPrivateTargets,
        resolve: deps.resolve,
        timeoutMs: deps.webhookTimeoutMs,
      });
      return;
    }
    if (!deps.mailer) throw new DeliveryError(EMAIL_UNAVAILABLE);
    const { subject, text } = emailMessage(ctx);
    await deps.mailer.send({ to: [rule.destination], subject, text });
  }

  return {
    repo,
    /** Checks a webhook URL as a capture URL is checked when added (DNS included): a clear 400 now, not a failed delivery later. */
    async create(ownerId: string, comparisonId: string, body: AlertBody): Promise<AlertView> {
      owned(ownerId, comparisonId);
      let destination: string;
      if (body.channel === "webhook") {
        destination = (await checkTargetUrl(body.url, { allowPrivate: deps.allowPrivateTargets, resolve: deps.resolve })).href;
      } else {
        if (!deps.mailer) throw badRequest(EMAIL_UNAVAILABLE);
        destination = body.email.trim();
      }
      if (repo.countFor(comparisonId) >= MAX_ALERTS_PER_COMPARISON)
        throw conflict(`A comparison can have up to ${MAX_ALERTS_PER_COMPARISON} alerts`);
      const id = newId();
      const kinds = [...new Set(body.kinds)];
      repo.insert({
        id,
        comparisonId,
        ownerId,
        channel: body.channel,
        destination,
        minSeverity: body.minSeverity,
        kinds,
        at: nowIso(now()),
      });
      return toAlertView(repo.list(comparisonId, ownerId).find((r) => r.id === id)!);
    },
    list(ownerId: string, comparisonId: string): AlertView[] {
      owned(ownerId, comparisonId);
      return repo.list(comparisonId, ownerId).map(toAlertView);
    },
    remove(ownerId: string, alertId: string): void {
      if (!repo.remove(alertId, ownerId)) throw notFound("Alert not found");
    },
    deliveries(ownerId: string, comparisonId: string): DeliveryView[] {
      owned(ownerId, comparisonId);
      return repo.deliveries(comparisonId, ownerId);
    },
    /**
     * After a run: every rule of the comparison gets the changes that pass its filter (none → no
     * message), delivered with retries; each delivery is logged with its attempts and last error.
     */
    async dispatch(input: DispatchInput): Promise<DispatchResult[]> {
      // Rules are delivered side by side: a receiver that is down (minutes of retries) must not
      // hold back the others.
      return Promise.all(
        repo.list(input.comparison.id, input.ownerId).map(async (rule): Promise<DispatchResult> => {
          const view = toAlertView(rule);
          const targets = input.targets
            .map((t) => ({ ...t, changes: filterChanges(t.changes, view.minSeverity, view.kinds) }))
            .filter((t) => t.changes.length > 0);
          if (targets.length === 0) return { alertId: rule.id, status: "skipped", attempts: 0, lastError: null };
          const ctx: AlertContext = { comparison: input.comparison, run: input.run, link: input.link, targets };
          const outcome = await withRetries(() => deliver(rule, ctx), deps.retry);
          const at = nowIso(now());
          repo.logDelivery({
            id: newId(),
            alertId: rule.id,
            comparisonId: input.comparison.id,
            ownerId: input.ownerId,
            runId: input.run.id,
            status: outcome.ok ? "sent" : "failed",
            attempts: outcome.attempts,
            lastError: outcome.lastError,
            sentAt: outcome.ok ? at : null,
            at,
          });
          return { alertId: rule.id, status: outcome.ok ? "sent" : "failed", attempts: outcome.attempts, lastError: outcome.lastError };
        }),
      );
    },
  };
}
