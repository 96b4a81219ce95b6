// Calls to the admin API: paths and answers typed from the server's routes.
import type { AlertSettings } from "#server/modules/admin/model";
import type { UpdateUserInput } from "#server/modules/users/model";
import type { SsoNewcomers } from "#server/modules/workspaces/model";
import { type BearerSource, api, call, download } from "#web/lib/api";

export type { BearerSource };

const enc = encodeURIComponent;

export const getSystemMetrics = () => call(api.admin["system-metrics"].get());
export const getDatabaseStats = () => call(api.admin["database-stats"].get());
export const getMaintenance = () => call(api.admin.maintenance.get());
export const setMaintenance = (enabled: boolean) => call(api.admin.maintenance.post({ enabled }));
/** Public: whether the app is in maintenance, for everyone's maintenance screen. */
export const getPublicMaintenance = () => call(api.maintenance.get());

export const getSystemStatus = () => call(api.system.status.get());
export const startSystem = () => call(api.system.start.post());
export const stopSystem = () => call(api.system.stop.post());
export const restartSystem = () => call(api.system.restart.post());

/** Spec §7: the admin page reads the last 100 activity entries. */
export const ADMIN_ACTIVITY_LIMIT = 100;
export const getAgents = () => call(api.agents.get());
export const getActivity = () => call(api.activity.get({ query: { limit: ADMIN_ACTIVITY_LIMIT } }));

export const listBackups = () => call(api.admin.backups.get()).then((r) => r.backups);
export const createBackup = () => call(api.admin.backups.post()).then((r) => r.backup);

export const getAlertSettings = () => call(api.admin["alert-settings"].get());
export const saveAlertSettings = (s: AlertSettings) => call(api.admin["alert-settings"].put(s));

/** Where first-time SSO users land besides their personal workspace (`workspaceId` null: nowhere else). */
export const getSsoNewcomers = () => call(api.admin["sso-newcomers"].get());
export const saveSsoNewcomers = (s: SsoNewcomers) => call(api.admin["sso-newcomers"].put(s));
/** The team workspaces the admin belongs to: the newcomers' choices. */
export const listOwnWorkspaces = () => call(api.workspaces.get());

export const getSecurityReport = () => call(api.admin["security-report"].get());

export const listUsers = (page: number, q: string) => call(api.admin.users.get({ query: { page, pageSize: 20, ...(q ? { q } : {}) } }));
export const updateUser = (id: string, patch: UpdateUserInput) => call(api.admin.users({ id: enc(id) }).patch(patch)).then((r) => r.user);

export const listAuditLogs = (page: number) => call(api.admin["audit-logs"].get({ query: { page, pageSize: 20 } }));

export const listApiKeys = () => call(api.admin["api-keys"].get()).then((r) => r.keys);
export const createApiKey = (name: string) => call(api.admin["api-keys"].post({ name, scope: "run" }));
export const revokeApiKey = (id: string) => call(api.admin["api-keys"]({ id: enc(id) }).delete()).then((r) => r.apiKey);
/** Every user's keys with their owners (the console's "All users" list), and revoking any of them. */
export const listAllApiKeys = (page: number, q: string) =>
  call(api.admin["all-api-keys"].get({ query: { page, pageSize: 20, ...(q ? { q } : {}) } }));
export const revokeAnyApiKey = (id: string) => call(api.admin["all-api-keys"]({ id: enc(id) }).delete()).then((r) => r.apiKey);

/** A backup file as a Blob. */
export function downloadBackup(name: string, auth: BearerSource): Promise<Blob> {
  return download((c) => c.admin.backups({ name: enc(name) }).get(), auth);
}

/** Host alerts still open, each one however long its figure stays high. */
export const getOngoingAlerts = () => call(api.admin.alerts.get());
