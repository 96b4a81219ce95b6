// The pieces roles are made of. Every role builds the same services on its context (cheap: nothing
// starts until a role starts it); what differs is which of them it starts, which capture tools its
// runs use and what it answers on its port.
import { type AppDeps, createServices, type Services } from "#server/app";
import type { LiveHub } from "#server/live/hub";
import { postgresRelay } from "#server/live/relay";
import type { Analyser } from "#server/modules/analysis";
import type { CaptureReadiness } from "#server/modules/capture/browser/pool";
import type { JobHandlers } from "#server/modules/jobs/public";
import type { LeaseState } from "#server/modules/leases/public";
import { captureOverJobs, scoringOverJobs } from "../capture-jobs";
import type { BootContext } from "../context";
import { type CaptureTools, runToolsWith } from "../run-tools";

export interface Composed {
  deps: AppDeps;
  services: Services;
}

export function compose(
  ctx: BootContext,
  parts: {
    capture?: CaptureTools;
    analyser?: Analyser;
    captureReadiness?: () => CaptureReadiness;
    jobHandlers?: JobHandlers;
    jobConcurrency?: number;
    schedulerLease?: () => LeaseState | null;
    /** This process starts runs (serve, scheduler, all): they record it as their driver on a shared database. */
    drives?: boolean;
    /** Whether the agents may run here now: never in a serve, only under the scheduler lease in a shared `all`. */
    hostsAgents?: boolean | (() => boolean);
  },
): Composed {
  const deps: AppDeps = {
    db: ctx.db,
    env: ctx.env,
    secret: ctx.secret,
    log: ctx.log,
    logger: ctx.logger,
    storage: ctx.storage,
    role: ctx.role,
    captureReadiness: parts.captureReadiness,
    runTools: parts.capture && parts.analyser ? runToolsWith(parts.capture, parts.analyser, ctx.env, ctx.log) : undefined,
    jobHandlers: parts.jobHandlers,
    jobConcurrency: parts.jobConcurrency,
    schedulerLease: parts.schedulerLease,
    driver: parts.drives && ctx.shared ? ctx.instance : undefined,
    sharedLimits: ctx.shared,
    hostsAgents: parts.hostsAgents,
  };
  return { deps, services: createServices(deps) };
}

/**
 * How the runs of a process that drives them but captures nothing itself (serve, scheduler) get
 * their pages captured and their pairs scored: capture and `analysis.pair` jobs, which any worker
 * (or single process on PostgreSQL) claims. Screenshots stay in the store; the findings (from the
 * extractions) stay in the driving process.
 */
export function runCapture(ctx: BootContext): { capture: CaptureTools; analyser: Analyser; close(): Promise<void> } {
  const analyser = scoringOverJobs(ctx);
  return { capture: captureOverJobs(ctx), analyser, close: async () => analyser.close() };
}

/**
 * On PostgreSQL, this process's hub also sends what it publishes to the other instances and
 * publishes what they send to its own sockets. Resolves with how to stop; nothing on SQLite.
 */
export async function relayLive(
  ctx: Pick<BootContext, "shared" | "db" | "log" | "logger">,
  hub: Pick<LiveHub, "receive" | "useRelay">,
): Promise<() => Promise<void>> {
  if (!ctx.shared) return async () => {};
  const relay = await postgresRelay(ctx.db, (event) => hub.receive(event), {
    log: ctx.log,
    onResubscribed: () => ctx.logger.warn("live relay: listening again after a dropped connection; messages sent meanwhile were missed"),
  });
  hub.useRelay(relay);
  return async () => {
    hub.useRelay(null);
    await relay.close();
  };
}

/** Waits for `work`, at most `ms`: a stop must finish even when a part of it hangs. */
export const atMost = (ms: number, work: Promise<unknown>) => Promise.race([work, Bun.sleep(ms)]);
