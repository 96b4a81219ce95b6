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
import { ApiError, api } from "../../lib/api";

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

/** Where the access token lives belongs to the auth feature; the route hands it in. */
export interface BearerSource {
  token(): string | null;
  refresh(): Promise<string | null>;
}

/**
 * The report as a file. The shared client only speaks JSON, and an HTML report is not JSON,
 * so this fetches the raw body itself with the same bearer-then-refresh dance.
 */
export async function fetchReport(comparisonId: string, format: ReportFormat, auth: BearerSource): Promise<Blob> {
  const path = exportPath(comparisonId, format);
  const send = (token: string | null) =>
    fetch(path, { credentials: "include", headers: token ? { authorization: `Bearer ${token}` } : {} });
  let res = await send(auth.token());
  if (res.status === 401) {
    const fresh = await auth.refresh();
    if (fresh) res = await send(fresh);
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    let message: string | undefined;
    try {
      const parsed = JSON.parse(text) as { error?: unknown };
      if (typeof parsed.error === "string") message = parsed.error;
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, text, message, res.statusText);
  }
  return res.blob();
}
