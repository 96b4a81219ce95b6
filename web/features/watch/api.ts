// Calls to the watch and run-history API: paths and answers typed from the server's routes.
import type { AlertRequest, AlertView, DeliveryView } from "#server/modules/watch/alerts/model";
import type { Change, ChangeKind, ChangesResponse, Severity } from "#server/modules/changes/model";
import type { DigestView } from "#server/modules/watch/digest/model";
import type { ScheduleView } from "#server/modules/watch/schedule/model";
import type { RunDetail, RunDto } from "#server/modules/history/model";
import { api, call, download, serverDefaults } from "#web/lib/api";

export type { AlertView, Change, ChangeKind, ChangesResponse, DeliveryView, DigestView, RunDetail, RunDto, ScheduleView, Severity };
export type DigestFrequency = DigestView["frequency"];
export type AlertInput = Pick<AlertRequest, "channel" | "url" | "email"> & Partial<Pick<AlertRequest, "minSeverity" | "kinds">>;
export type Viewport = Change["viewport"];

const enc = encodeURIComponent;
const one = (id: string) => api.comparisons({ id: enc(id) });

/** GET /comparisons/:id carries the schedule. */
export const getSchedule = (comparisonId: string) => call(one(comparisonId).get()).then((c) => c.schedule);
export const putSchedule = (comparisonId: string, cron: string, timezone: string) =>
  call(one(comparisonId).schedule.put({ cron, timezone }));
export const removeSchedule = (comparisonId: string) => call(one(comparisonId).schedule.delete());

export const listAlerts = (comparisonId: string) => call(one(comparisonId).alerts.get());
export const createAlert = (comparisonId: string, input: AlertInput) =>
  call(one(comparisonId).alerts.post(serverDefaults<AlertRequest>(input)));
export const deleteAlert = (alertId: string) => call(api.alerts({ id: enc(alertId) }).delete());
export const listDeliveries = (comparisonId: string) => call(one(comparisonId).alerts.deliveries.get());

export const getDigest = () => call(api.watch.digest.get());
export const putDigest = (frequency: DigestFrequency, timezone: string) => call(api.watch.digest.put({ frequency, timezone }));

export const listRuns = (comparisonId: string) => call(one(comparisonId).runs.get());
export const getRun = (comparisonId: string, runId: string) =>
  call(
    one(comparisonId)
      .runs({ runId: enc(runId) })
      .get(),
  );

/** Between two completed runs; either side left out means the server's default (the last two), of the home page in light. */
export const getChanges = (comparisonId: string, range: { from?: string; to?: string; page?: string; colorScheme?: "light" | "dark" }) =>
  call(one(comparisonId).changes.get({ query: range }));

/** The pixel heat map of one page of a website between two runs, as a PNG blob. */
export const fetchHeatMap = (
  comparisonId: string,
  q: { targetId: string; viewport: Viewport; page: string; colorScheme: "light" | "dark"; from: string; to: string },
) => download((c) => c.comparisons({ id: enc(comparisonId) }).changes.visual.get({ query: q }));
