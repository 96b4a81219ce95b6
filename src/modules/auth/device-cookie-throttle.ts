// Sign-in throttling with device cookies (OWASP "Slow Down Online Guessing Attacks with Device
// Cookies"). An attempt carrying a valid device cookie for the account it signs in to comes from a
// trusted device: only that device's own failures count against it. Every other attempt is
// untrusted: limited per client address (every attempt) and per account (failed untrusted
// attempts). So guessing from new browsers stays throttled, and however much of it there is,
// the owner's known browser still signs in. A trusted device that fails too often is treated as
// untrusted until its window passes (the lockout list of the OWASP design).
import { type BudgetFactory, RateLimiter } from "#server/http/rate-limit";

export interface LoginLimits {
  /** Untrusted sign-in attempts per client address per minute. */
  perIpPerMinute: number;
  /** Failed untrusted sign-ins per account per minute; past it, untrusted attempts on that account get 429. */
  perAccountPerMinute: number;
  /** Failed sign-ins per trusted device per minute; past it, that device counts as untrusted. */
  perDevicePerMinute: number;
}

export interface LoginAttempt {
  trusted: boolean;
  /** The password was right: the attempt is given back, so only failures use up a budget. */
  succeeded(): Promise<void>;
}

const WINDOW_MS = 60_000;

/**
 * `budgets`: where the counts are kept; in this process's memory when absent. A deployment of
 * several instances keeps them in its database, so a lockout holds whichever instance is asked.
 */
export function loginThrottle(limits: LoginLimits, now: () => number = Date.now, budgets?: BudgetFactory) {
  const budget: BudgetFactory = budgets ?? ((_name, limit, windowMs) => new RateLimiter(limit, windowMs, now));
  const perIp = budget("login-ip", limits.perIpPerMinute, WINDOW_MS);
  const perAccount = budget("login-account", limits.perAccountPerMinute, WINDOW_MS);
  const perDevice = budget("login-device", limits.perDevicePerMinute, WINDOW_MS);

  return {
    /**
     * Decides, before the password is checked, whether this attempt may go ahead (throws 429 if not)
     * and which budget it is charged to. It is charged up front, so parallel guesses can't all slip
     * in before the first failure is known; a success gives it back. `deviceId` is set only for a
     * device cookie valid for this very account.
     */
    async admit(a: { ip: string; account: string; deviceId: string | null }): Promise<LoginAttempt> {
      if (a.deviceId && !(await perDevice.exhausted(a.deviceId))) {
        const device = a.deviceId;
        await perDevice.hit(device);
        return { trusted: true, succeeded: async () => perDevice.refund(device) };
      }
      await perIp.hit(a.ip);
      await perAccount.hit(a.account);
      return { trusted: false, succeeded: async () => perAccount.refund(a.account) };
    },
  };
}

export type LoginThrottle = ReturnType<typeof loginThrottle>;
