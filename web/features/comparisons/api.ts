// Typed calls to the comparisons API. Shapes come from the server's model (types only).
import type {
  AddTargetInput,
  ComparisonDto,
  CreateComparisonInput,
  DiffDto,
  FindingDto,
  SnapshotDto,
  TargetDto,
} from "../../../src/modules/comparisons/model";
import { api, apiBlob, type BearerSource } from "../../lib/api";

export type { BearerSource };

const enc = encodeURIComponent;

export const listComparisons = () => api<ComparisonDto[]>("/api/comparisons");
export const getComparison = (id: string) => api<ComparisonDto>(`/api/comparisons/${enc(id)}`);
export const createComparison = (input: CreateComparisonInput) =>
  api<ComparisonDto>("/api/comparisons", { body: input });
export const startComparison = (id: string) =>
  api<unknown>(`/api/comparisons/${enc(id)}/start`, { method: "POST" });

export const listTargets = (comparisonId: string) => api<TargetDto[]>(`/api/comparisons/${enc(comparisonId)}/targets`);
export const addTarget = (comparisonId: string, input: AddTargetInput) =>
  api<TargetDto>(`/api/comparisons/${enc(comparisonId)}/targets`, { body: input });
export const deleteTarget = (targetId: string) => api<unknown>(`/api/targets/${enc(targetId)}`, { method: "DELETE" });

export const listSnapshots = (comparisonId: string) => api<SnapshotDto[]>(`/api/comparisons/${enc(comparisonId)}/snapshots`);
export const listDiffs = (comparisonId: string) => api<DiffDto[]>(`/api/comparisons/${enc(comparisonId)}/diffs`);
export const listFindings = (comparisonId: string) => api<FindingDto[]>(`/api/comparisons/${enc(comparisonId)}/findings`);

export type ReportFormat = "json" | "html";

export const exportPath = (comparisonId: string, format: ReportFormat) =>
  `/api/comparisons/${enc(comparisonId)}/export?format=${format}`;

/** The report as a file (an HTML report is not JSON). */
export async function fetchReport(comparisonId: string, format: ReportFormat, auth: BearerSource): Promise<Blob> {
  const path = exportPath(comparisonId, format);
  return apiBlob(path, auth);
}
