// A run's state machine lives in the process that started it (docs/decisions/0005 and 0023). With
// several instances on one database, each run records its driver, and each driving instance keeps
// a `run-driver:<instance>` lease while it is up. A run whose driver holds no live lease lost its
// machine with that process: it is failed, at the boot of any instance and by the scheduler, with
// a reason that says to start it again. On SQLite there is one process: every run left 'running'
// at boot lost its machine, as the embedded server has always assumed.
import type { Services } from "#server/app";
import { currentHolder, DEFAULT_LEASE_TTL_MS, leaseKeeper, type LeaseKeeper } from "#server/modules/leases/public";
import type { BootContext } from "./context";

export const DRIVER_LEASE_PREFIX = "run-driver:";
/** What a run says when the instance driving it stopped. */
export const DRIVER_STOPPED_REASON = "The instance running this analysis stopped before it finished — start it again";

export interface RunDrivers {
  /** How long a stopped driver's lease outlives it: the scheduler looks for its runs this often. */
  ttlMs: number;
  /** Starts keeping this instance's drive lease (a process that starts runs). */
  start(): void;
  stop(): Promise<void>;
  /** Fails the runs no live instance drives; the number failed. */
  failOrphans(): Promise<number>;
}

export function runDrivers(
  ctx: Pick<BootContext, "shared" | "db" | "instance" | "log" | "logger">,
  services: Pick<Services, "comparisons">,
  opts: { ttlMs?: number } = {},
): RunDrivers {
  const ttlMs = opts.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const keeper: LeaseKeeper | null = ctx.shared
    ? leaseKeeper({ db: ctx.db, name: DRIVER_LEASE_PREFIX + ctx.instance, holder: ctx.instance, ttlMs, log: ctx.log })
    : null;
  const driving = async ({ driver, since }: { driver: string | null | undefined; since: string }) => {
    // Marked running, its run row not written yet: a launch in progress, unless it has been so for a whole lease.
    if (driver === undefined) return Date.now() - Date.parse(since) < ttlMs;
    return driver !== null && (driver === ctx.instance || (await currentHolder(ctx.db, DRIVER_LEASE_PREFIX + driver)) === driver);
  };
  return {
    ttlMs,
    start: () => keeper?.start(),
    stop: async () => {
      await keeper?.stop();
    },
    async failOrphans() {
      const n = await services.comparisons.recoverInterruptedRuns(ctx.shared ? { driving, reason: DRIVER_STOPPED_REASON } : {});
      if (n) ctx.logger.warn({ runs: n }, `failed ${n} runs no process was driving any more`);
      return n;
    },
  };
}
