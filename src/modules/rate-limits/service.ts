// Fixed-window rate limits kept in the database, so a budget holds across every instance of a
// deployment: ten failed sign-ins to an account lock it out whichever instances they reached. The
// same answers as the in-memory RateLimiter (src/http/rate-limit.ts), which the single process keeps.
import type { SqlDb } from "#server/db/sql";
import { tooMany } from "#server/http/errors";
import { rateWindowRepository } from "./repository";

/** A budget either kind of limiter keeps: in memory for one process, in the database for many. */
export interface SharedBudget {
  /** Throws 429 with Retry-After when `key` is over its budget. */
  hit(key: string): Promise<void>;
  /** True once `key` has used its whole budget in the current window. */
  exhausted(key: string): Promise<boolean>;
  /** Gives back one unit `hit` took. */
  refund(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/** Windows that ended are removed about once in this many uses, by whichever instance spends it. */
const SWEEP_EVERY = 500;

export function sharedRateLimiter(db: SqlDb, opts: { name: string; limit: number; windowMs: number; now?: () => number }): SharedBudget {
  const repo = rateWindowRepository(db);
  const now = opts.now ?? Date.now;
  // Each limiter's keys apart from the others' in the one table.
  const k = (key: string) => `${opts.name}:${key}`;
  let uses = 0;
  return {
    async hit(key) {
      const t = now();
      if (++uses % SWEEP_EVERY === 0) await repo.sweep(t);
      const w = await repo.spend(k(key), t, opts.windowMs);
      if (w && w.count > opts.limit) throw tooMany(Math.max(1, Math.ceil((w.reset_ms - t) / 1000)));
    },
    async exhausted(key) {
      const w = await repo.find(k(key));
      return Boolean(w && w.reset_ms > now() && w.count >= opts.limit);
    },
    async refund(key) {
      await repo.refund(k(key), now());
    },
    async reset(key) {
      await repo.remove(k(key));
    },
  };
}
