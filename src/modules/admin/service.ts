import { resolve } from "node:path";
import { type SqlDb, sqliteConnectionOf } from "#server/db/sql";
import type { Env } from "#server/env";
import type { RequestMetrics } from "#server/http/request-metrics";
import { nowIso } from "#server/lib/ids";
import type { LiveHub } from "#server/live/hub";
import type { AuditService } from "#server/modules/audit/service";
import type { BlobStorage } from "#server/modules/storage";
import { type ActivitySink, hostAlertsService } from "./host-alerts";
import { backupService, POSTGRES_BACKUPS } from "./backups";
import { databaseStatsReader } from "./database-stats";
import { HostSampler } from "./host-metrics";
import { smtpMailer, type Mailer } from "./mailer";
import { maintenanceService } from "./maintenance";
import type { DatabaseStats, SecurityReport, SystemMetrics } from "./model";
import { adminRepository } from "./repository";
import { metricsSampler } from "./sampler";

export interface AdminDeps {
  db: SqlDb;
  env: Pick<Env, "DATA_DIR" | "BACKUP_KEEP" | "ALERT_WEBHOOK_URL" | "SMTP_URL" | "ALERT_EMAIL_FROM" | "PUBLIC_URL">;
  requests: RequestMetrics;
  live: LiveHub;
  audit: AuditService;
  activity?: ActivitySink;
  /** Figures owned by other modules, for the security report. */
  userCounts(): Promise<{ users: number; admins: number; disabled: number }>;
  /** Who alert e-mails go to. */
  adminEmails(): Promise<string[]>;
  /** Replaces the SMTP mailer built from the env (tests). */
  mailer?: Mailer;
  /** Where backups are kept (STORAGE_URL); DATA_DIR/backups when absent. */
  storage?: BlobStorage;
  activeApiKeys(): Promise<number>;
  /** Disk use of the run history (the history module's). */
  historyStorage?(): Promise<{ runs: number; bytes: number }>;
  sampleIntervalMs?: number;
  log?: (msg: string, err?: unknown) => void;
  now?: () => number;
}

export function adminService(deps: AdminDeps) {
  const now = deps.now ?? Date.now;
  const dataDir = resolve(deps.env.DATA_DIR);
  const repo = adminRepository(deps.db);
  const host = new HostSampler(dataDir);
  // The file's size and open handles are SQLite's; PostgreSQL has no file here ("").
  const dbFigures = databaseStatsReader(repo, sqliteConnectionOf(deps.db)?.filename ?? "");
  const backups = backupService({ repo, dataDir, keep: deps.env.BACKUP_KEEP, audit: deps.audit, now, storage: deps.storage });
  const maintenance = maintenanceService({ repo, audit: deps.audit, live: deps.live, now, log: deps.log });
  const hostAlerts = hostAlertsService({
    repo,
    audit: deps.audit,
    live: deps.live,
    activity: deps.activity,
    webhookUrl: deps.env.ALERT_WEBHOOK_URL,
    mailer: deps.mailer ?? (deps.env.SMTP_URL ? smtpMailer(deps.env.SMTP_URL, deps.env.ALERT_EMAIL_FROM) : undefined),
    recipients: deps.adminEmails,
    publicUrl: deps.env.PUBLIC_URL,
    log: deps.log,
    now,
  });

  async function systemMetrics(): Promise<SystemMetrics> {
    const h = await host.sample();
    const http = deps.requests.inFlight;
    const sockets = deps.live.size;
    return {
      ...h,
      uptime: Math.round(process.uptime() * 1000),
      activeConnections: http + sockets,
      connections: { http, sockets },
      totalRequests: deps.requests.total,
      errorRate: Math.round(deps.requests.errorRate() * 100) / 100,
      sampledAt: nowIso(now()),
    };
  }

  const sampler = metricsSampler({
    collect: systemMetrics,
    live: deps.live,
    hostAlerts,
    intervalMs: deps.sampleIntervalMs ?? 5000,
    log: deps.log,
  });

  return {
    systemMetrics,
    databaseStats: async (): Promise<DatabaseStats> => {
      const h = (await deps.historyStorage?.()) ?? { runs: 0, bytes: 0 };
      return {
        engine: deps.db.dialect.name,
        engineDetail: await repo.engineVersion(),
        backupAdvice: deps.db.dialect.name === "postgres" ? POSTGRES_BACKUPS : null,
        ...(await dbFigures()),
        historyRuns: h.runs,
        historyBytes: h.bytes,
        ...(await backups.status()),
      };
    },
    backups,
    maintenance,
    hostAlerts,
    sampler,

    async securityReport(https: boolean): Promise<SecurityReport> {
      const c = await deps.userCounts();
      return {
        users: c.users,
        admins: c.admins,
        disabledUsers: c.disabled,
        failedSignIns24h: await deps.audit.countSince("auth.sign_in_failed", now() - 24 * 60 * 60 * 1000),
        activeApiKeys: await deps.activeApiKeys(),
        https,
        secureCookies: https,
        maintenance: maintenance.isOn(),
        generatedAt: nowIso(now()),
      };
    },
  };
}

export type AdminService = ReturnType<typeof adminService>;
