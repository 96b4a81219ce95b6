// Calls to the comparisons API: paths and answers typed from the server's routes.
import type { AddTargetInput, CreateComparisonInput, UpdateComparisonInput } from "#server/modules/comparisons/model";
import { type BearerSource, api, call, download } from "#web/lib/api";

export type { BearerSource };

const enc = encodeURIComponent;
const one = (id: string) => api.comparisons({ id: enc(id) });

export const listComparisons = () => call(api.comparisons.get());
export const getComparison = (id: string) => call(one(id).get());
export const createComparison = (input: CreateComparisonInput) => call(api.comparisons.post(input));
export const deleteComparison = (id: string) => call(one(id).delete());
export const startComparison = (id: string) => call(one(id).start.post());
/** The comparison's capture settings: consent policy, colour schemes. */
export type ComparisonSettings = UpdateComparisonInput;
export const updateComparison = (id: string, input: ComparisonSettings) => call(one(id).patch(input));

export const listTargets = (comparisonId: string) => call(one(comparisonId).targets.get());
export const addTarget = (comparisonId: string, input: AddTargetInput) => call(one(comparisonId).targets.post(input));
export const deleteTarget = (targetId: string) => call(api.targets({ id: enc(targetId) }).delete());

export const listSnapshots = (comparisonId: string) => call(one(comparisonId).snapshots.get());
export const listDiffs = (comparisonId: string) => call(one(comparisonId).diffs.get());
export const listFindings = (comparisonId: string) => call(one(comparisonId).findings.get());

export type ReportFormat = "json" | "html";

/** The report as a file (an HTML report is not JSON). */
export function fetchReport(comparisonId: string, format: ReportFormat, auth: BearerSource): Promise<Blob> {
  return download((c) => c.comparisons({ id: enc(comparisonId) }).export.get({ query: { format } }), auth);
}
