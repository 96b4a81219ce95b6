// The health endpoints' answers. /api/health/live says the process answers at all; /api/health/ready
// says it can do its job now: each check below has its own entry, and a 503 names the failing ones.
import { z } from "zod";

export const healthCheck = z.object({
  ok: z.boolean(),
  /** What was found, in words an operator can act on (free space, pending migrations, the error). */
  detail: z.string(),
});
export type HealthCheck = z.infer<typeof healthCheck>;

/**
 * What a process runs (docs/scaling.md, "Roles"): `all` serves, captures and schedules (the
 * embedded install); the others split that work between processes sharing PostgreSQL.
 */
export const PROCESS_ROLES = ["all", "serve", "worker", "scheduler"] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/**
 * Each role checks what it needs: every role database, migrations and storage; `all` and `worker`
 * capture (and `browser` with remote browsers, BROWSER_WS_ENDPOINTS: which browser servers
 * answer); `scheduler` the scheduler lease.
 */
export const READY_CHECKS = ["database", "migrations", "storage", "capture", "browser", "scheduler"] as const;
export type ReadyCheckName = (typeof READY_CHECKS)[number];

export const readyChecks = z.object({
  database: healthCheck,
  migrations: healthCheck,
  storage: healthCheck,
  capture: healthCheck.optional(),
  browser: healthCheck.optional(),
  /** The scheduler lease: held, or standing by (ready either way), and who holds it. */
  scheduler: healthCheck.optional(),
});
export type ReadyChecks = z.infer<typeof readyChecks>;

/** A scheduler's lease as the database has it: whether this process holds it, else who does and until when. */
export const leaseView = z.object({ held: z.boolean(), holder: z.string().nullable(), until: z.string().nullable() });

export const liveResponse = z.object({ ok: z.literal(true) });
export type LiveResponse = z.infer<typeof liveResponse>;

export const readyResponse = z.object({
  ok: z.literal(true),
  role: z.enum(PROCESS_ROLES),
  checks: readyChecks,
  lease: leaseView.optional(),
});
export type ReadyResponse = z.infer<typeof readyResponse>;

/** The usual `{ error }` body, plus every check so one probe tells the whole story. */
export const notReadyResponse = z.object({
  error: z.string(),
  role: z.enum(PROCESS_ROLES),
  checks: readyChecks,
  lease: leaseView.optional(),
});
export type NotReadyResponse = z.infer<typeof notReadyResponse>;
