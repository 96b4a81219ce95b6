import { z } from "zod";

export const MAINTENANCE_MESSAGE = "System is currently in maintenance mode. Users cannot access the application.";

export const systemMetrics = z.object({
  /** Percent of host CPU busy over the last sampling interval. */
  cpu: z.number(),
  /** Percent of host memory in use (MemTotal - MemAvailable). */
  memory: z.number(),
  /** Percent used of the filesystem holding DATA_DIR. */
  disk: z.number(),
  /** Bytes per second across non-loopback interfaces; null where the kernel exposes no counters. */
  network: z.object({ in: z.number(), out: z.number() }).nullable(),
  /** Milliseconds since this server process started. */
  uptime: z.number(),
  /** Requests in flight plus open live sockets. */
  activeConnections: z.number(),
  connections: z.object({ http: z.number(), sockets: z.number() }),
  totalRequests: z.number(),
  /** Percent of answers that were 5xx over the last five minutes. */
  errorRate: z.number(),
  sampledAt: z.string(),
});
export type SystemMetrics = z.infer<typeof systemMetrics>;

/** healthy: a verified copy from the last 24 h; overdue: older; failed: the last attempt failed; none: never backed up. */
export const BACKUP_STATUSES = ["healthy", "overdue", "failed", "none"] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

export const databaseStats = z.object({
  /** Which database this installation keeps its data in, and its version ("sqlite 3.51.0", "postgres 15.14"). */
  engine: z.enum(["sqlite", "postgres"]),
  engineDetail: z.string(),
  /** How backups are made when the console does not make them (PostgreSQL); null when it does. */
  backupAdvice: z.string().nullable(),
  totalRecords: z.number(),
  tables: z.number(),
  /** SQLite: open connections to the database file held by this process (main thread and workers); PostgreSQL: sessions on this database, from every instance. */
  connections: z.number(),
  /** Mean milliseconds of the recent measured stats queries. */
  queryTime: z.number(),
  /** Bytes of the database file plus its write-ahead log; PostgreSQL: the database's size. */
  dbSize: z.number(),
  /** Run history: runs kept, and bytes of their screenshot files (each shared file counted once). */
  historyRuns: z.number(),
  historyBytes: z.number(),
  backupStatus: z.enum(BACKUP_STATUSES),
  lastBackup: z.string().nullable(),
  lastBackupError: z.string().nullable(),
  backupCount: z.number(),
});
export type DatabaseStats = z.infer<typeof databaseStats>;

export const maintenanceBody = z.object({
  enabled: z.boolean({ error: "enabled must be true or false" }),
});

export const maintenanceState = z.object({
  enabled: z.boolean(),
  message: z.string(),
  since: z.string().nullable(),
  by: z.string().nullable(),
});
export type MaintenanceState = z.infer<typeof maintenanceState>;

const threshold = (label: string) =>
  z
    .number({ error: `${label} threshold must be a number` })
    .int(`${label} threshold must be a whole number`)
    .min(1, `${label} threshold must be between 1 and 100`)
    .max(100, `${label} threshold must be between 1 and 100`);

export const alertSettings = z.object({
  cpuThreshold: threshold("CPU"),
  memoryThreshold: threshold("Memory"),
  errorRateThreshold: z
    .number({ error: "Error rate threshold must be a number" })
    .min(0.1, "Error rate threshold must be between 0.1 and 100")
    .max(100, "Error rate threshold must be between 0.1 and 100")
    .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-6, "Error rate threshold moves in steps of 0.1"),
  emailNotifications: z.boolean({ error: "emailNotifications must be true or false" }),
  slackNotifications: z.boolean({ error: "slackNotifications must be true or false" }),
});
export type AlertSettings = z.infer<typeof alertSettings>;

/** Spec §9 defaults. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  cpuThreshold: 80,
  memoryThreshold: 85,
  errorRateThreshold: 5,
  emailNotifications: true,
  slackNotifications: false,
};

export const alertSettingsAnswer = z.object({
  settings: alertSettings,
  /** Which channels this server can actually deliver on. */
  channels: z.object({ email: z.boolean(), chat: z.boolean() }),
});
export type AlertSettingsAnswer = z.infer<typeof alertSettingsAnswer>;

export const ALERT_METRICS = ["cpu", "memory", "errorRate"] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const alertPayload = z.object({
  metric: z.enum(ALERT_METRICS),
  value: z.number(),
  threshold: z.number(),
  message: z.string(),
  at: z.string(),
});
export type AlertPayload = z.infer<typeof alertPayload>;

/** A host alert still open: one per crossing, however long the figure stays high. */
export const ongoingAlert = z.object({
  metric: z.enum(ALERT_METRICS),
  /** The metric's threshold as set now. */
  threshold: z.number(),
  /** The line the figure must fall below (and stay under through the cooldown) for the alert to end. */
  rearmBelow: z.number(),
  /** When the figure crossed. */
  since: z.string(),
  /** The highest value seen during the alert. */
  peak: z.number(),
  /** From the crossing to `at` while the figure is above the threshold, else to the last sample above it. */
  durationMs: z.number(),
  /** Whether the latest sample was above the threshold (the duration is still counting). */
  above: z.boolean(),
  /** The figure fell below the re-arm line: the alert ends if it stays there through the cooldown. */
  easing: z.boolean(),
});
export type OngoingAlert = z.infer<typeof ongoingAlert>;

/** GET /api/admin/alerts. */
export const ongoingAlerts = z.object({
  ongoing: z.array(ongoingAlert),
  /** When this was read (durations are as of then). */
  at: z.string(),
  /** How long a re-armed figure must stay low before its alert ends. */
  cooldownMs: z.number(),
});
export type OngoingAlerts = z.infer<typeof ongoingAlerts>;

export const backupInfo = z.object({
  name: z.string(),
  size: z.number(),
  createdAt: z.string(),
});
export type BackupInfo = z.infer<typeof backupInfo>;

export const backupNameParam = z.object({
  name: z.string().regex(/^design-intel-\d{8}T\d{9}Z\.db$/, "Not a backup file name"),
});

export const securityReport = z.object({
  users: z.number(),
  admins: z.number(),
  disabledUsers: z.number(),
  failedSignIns24h: z.number(),
  activeApiKeys: z.number(),
  /** Whether this very request reached us over https (directly or via a trusted proxy). */
  https: z.boolean(),
  /** Session cookies carry Secure exactly when the request is https. */
  secureCookies: z.boolean(),
  maintenance: z.boolean(),
  generatedAt: z.string(),
});
export type SecurityReport = z.infer<typeof securityReport>;
