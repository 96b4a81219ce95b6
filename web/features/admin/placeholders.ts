// Spec §2: until the first answer arrives the console shows these figures, marked as loading.
// They are never shown once a real reading exists.
import type { DatabaseStats, SystemMetrics } from "#server/modules/admin/model";

export const PLACEHOLDER_METRICS: SystemMetrics = {
  cpu: 45,
  memory: 68,
  disk: 72,
  network: { in: 1_250_000, out: 890_000 },
  uptime: 7 * 24 * 3600 * 1000 + 5 * 3600 * 1000 + 23 * 60 * 1000,
  activeConnections: 23,
  connections: { http: 3, sockets: 20 },
  totalRequests: 15_420,
  errorRate: 0.2,
  sampledAt: "1970-01-01T00:00:00.000Z",
};

export const PLACEHOLDER_DATABASE: DatabaseStats = {
  engine: "sqlite",
  engineDetail: "sqlite",
  backupAdvice: null,
  totalRecords: 15_420,
  tables: 12,
  connections: 12,
  queryTime: 45,
  dbSize: 2.4 * 1024 * 1024 * 1024,
  historyRuns: 0,
  historyBytes: 0,
  backupStatus: "healthy",
  lastBackup: null,
  lastBackupError: null,
  backupCount: 0,
};
