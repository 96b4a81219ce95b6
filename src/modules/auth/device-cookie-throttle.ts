// Sign-in throttling with device cookies (OWASP "Slow Down Online Guessing Attacks with Device
// Cookies"). An attempt carrying a valid device cookie for the account it signs in to comes from a
// trusted device: only that device's own failures count against it. Every other attempt is
// untrusted: limited per client address (every attempt) and per account (failed untrusted
// attempts). So guessing from new browsers stays throttled, and however much of it there is,
// the owner's known browser still signs in. A trusted device that fails too often is treated as
// untrusted until its window passes (the lockout list of the OWASP design).
import { RateLimiter } from "#server/http/rate-limit";

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
  succeeded(): void;
}

const WINDOW_MS = 60_000;

export function loginThrottle(limits: LoginLimits, now: () => number = Date.now) {
  const perIp = new RateLimiter(limits.perIpPerMinute, WINDOW_MS, now);
  const perAccount = new RateLimiter(limits.perAccountPerMinute, WINDOW_MS, now);
  const perDevice = new RateLimiter(limits.perDevicePerMinute, WINDOW_MS, now);

  return {
    /**
     * Decides, before the password is checked, whether this attempt may go ahead (throws 429 if not)
     * and which budget it is charged to. It is charged up front, so parallel guesses can't all slip
     * in before the first failure is known; a success gives it back. `deviceId` is set only for a
     * device cookie valid for this very account.
     */
    admit(a: { ip: string; account: string; deviceId: string | null }): LoginAttempt {
      if (a.deviceId && !perDevice.exhausted(a.deviceId)) {
        const device = a.deviceId;
        perDevice.hit(device);
        return { trusted: true, succeeded: () => perDevice.refund(device) };
      }
      perIp.hit(a.ip);
      perAccount.hit(a.account);
      return { trusted: false, succeeded: () => perAccount.refund(a.account) };
    },
  };
}

export type LoginThrottle = ReturnType<typeof loginThrottle>;
