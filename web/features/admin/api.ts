// Typed calls to the admin API. Shapes come from the server's models (types only).
import type {
  AlertSettings,
  AlertSettingsAnswer,
  BackupInfo,
  DatabaseStats,
  MaintenanceState,
  SecurityReport,
  SystemMetrics,
} from "../../../src/modules/admin/model";
import type { ActivityEntryDto } from "../../../src/modules/activity/model";
import type { AgentDto } from "../../../src/modules/agents/model";
import type { ApiKeyView, CreatedApiKey } from "../../../src/modules/api-keys/model";
import type { AuditPage } from "../../../src/modules/audit/model";
import type { ManagedUser, UpdateUserInput, UserPage } from "../../../src/modules/users/model";
import { api, apiBlob, type BearerSource } from "../../lib/api";

export type { BearerSource };

const enc = encodeURIComponent;

export const getSystemMetrics = () => api<SystemMetrics>("/api/admin/system-metrics");
export const getDatabaseStats = () => api<DatabaseStats>("/api/admin/database-stats");
export const getMaintenance = () => api<MaintenanceState>("/api/admin/maintenance");
export const setMaintenance = (enabled: boolean) => api<MaintenanceState>("/api/admin/maintenance", { body: { enabled } });
/** Public: whether the app is in maintenance, for everyone's maintenance screen. */
export const getPublicMaintenance = () => api<{ enabled: boolean; message: string }>("/api/maintenance");

export const getSystemStatus = () => api<{ isActive: boolean }>("/api/system/status");
export const startSystem = () => api<unknown>("/api/system/start", { method: "POST" });
export const stopSystem = () => api<unknown>("/api/system/stop", { method: "POST" });
export const restartSystem = () => api<unknown>("/api/system/restart", { method: "POST" });

/** Spec §7: the admin page reads the last 100 activity entries. */
export const ADMIN_ACTIVITY_LIMIT = 100;
export const getAgents = () => api<AgentDto[]>("/api/agents");
export const getActivity = () => api<ActivityEntryDto[]>(`/api/activity?limit=${ADMIN_ACTIVITY_LIMIT}`);

export const listBackups = () => api<{ backups: BackupInfo[] }>("/api/admin/backups").then((r) => r.backups);
export const createBackup = () => api<{ backup: BackupInfo }>("/api/admin/backups", { method: "POST" }).then((r) => r.backup);

export const getAlertSettings = () => api<AlertSettingsAnswer>("/api/admin/alert-settings");
export const saveAlertSettings = (s: AlertSettings) => api<AlertSettingsAnswer>("/api/admin/alert-settings", { method: "PUT", body: s });

export const getSecurityReport = () => api<SecurityReport>("/api/admin/security-report");

export const listUsers = (page: number, q: string) =>
  api<UserPage>(`/api/admin/users?page=${page}&pageSize=20${q ? `&q=${enc(q)}` : ""}`);
export const updateUser = (id: string, patch: UpdateUserInput) =>
  api<{ user: ManagedUser }>(`/api/admin/users/${enc(id)}`, { method: "PATCH", body: patch }).then((r) => r.user);

export const listAuditLogs = (page: number) => api<AuditPage>(`/api/admin/audit-logs?page=${page}&pageSize=20`);

export const listApiKeys = () => api<{ keys: ApiKeyView[] }>("/api/admin/api-keys").then((r) => r.keys);
export const createApiKey = (name: string) => api<CreatedApiKey>("/api/admin/api-keys", { body: { name } });
export const revokeApiKey = (id: string) =>
  api<{ apiKey: ApiKeyView }>(`/api/admin/api-keys/${enc(id)}`, { method: "DELETE" }).then((r) => r.apiKey);

/** A backup file as a Blob. */
export async function downloadBackup(name: string, auth: BearerSource): Promise<Blob> {
  const path = `/api/admin/backups/${enc(name)}`;
  return apiBlob(path, auth);
}
