// The health endpoints' answers. /api/health/live says the process answers at all; /api/health/ready
// says it can do its job now: each check below has its own entry, and a 503 names the failing ones.
import { z } from "zod";

export const healthCheck = z.object({
  ok: z.boolean(),
  /** What was found, in words an operator can act on (free space, pending migrations, the error). */
  detail: z.string(),
});
export type HealthCheck = z.infer<typeof healthCheck>;

/** `browser` is there only with remote browsers (BROWSER_WS_ENDPOINTS): which browser servers answer. */
export const READY_CHECKS = ["database", "migrations", "storage", "capture", "browser"] as const;
export type ReadyCheckName = (typeof READY_CHECKS)[number];

export const readyChecks = z.object({
  database: healthCheck,
  migrations: healthCheck,
  storage: healthCheck,
  capture: healthCheck,
  browser: healthCheck.optional(),
});
export type ReadyChecks = z.infer<typeof readyChecks>;

export const liveResponse = z.object({ ok: z.literal(true) });
export type LiveResponse = z.infer<typeof liveResponse>;

export const readyResponse = z.object({ ok: z.literal(true), checks: readyChecks });
export type ReadyResponse = z.infer<typeof readyResponse>;

/** The usual `{ error }` body, plus every check so one probe tells the whole story. */
export const notReadyResponse = z.object({ error: z.string(), checks: readyChecks });
export type NotReadyResponse = z.infer<typeof notReadyResponse>;
