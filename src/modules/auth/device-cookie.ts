// Device cookies, after OWASP's "Slow Down Online Guessing Attacks with Device Cookies": a browser
// that signs in to an account gets a signed cookie naming that account, and its later sign-in
// attempts to that account are limited on their own (device-cookie-throttle.ts), so failures from
// anywhere else can't lock it out. The cookie grants nothing by itself: the password is still needed.
import { createHmac, timingSafeEqual } from "node:crypto";
import { randomToken } from "#server/lib/ids";

export const DEVICE_COOKIE = "di_device";
/** Sent only with sign-in attempts, the one place it is read. */
export const DEVICE_COOKIE_PATH = "/api/auth/login";
export const DEVICE_COOKIE_TTL_SECONDS = 365 * 24 * 60 * 60;
const VERSION = "d1";

export function deviceCookies(secret: Uint8Array, now: () => number = Date.now) {
  // A key of its own, derived from the server secret, so a device-cookie signature can never be
  // replayed as anything else that secret signs (access tokens).
  const key = createHmac("sha256", secret).update("design-intel/device-cookie/v1").digest();
  const signatureOf = (payload: string) => createHmac("sha256", key).update(payload).digest();

  return {
    /** A fresh cookie value for a browser that just signed in as `userId`. */
    issue(userId: string): string {
      const expires = Math.floor(now() / 1000) + DEVICE_COOKIE_TTL_SECONDS;
      const payload = [VERSION, userId, randomToken(16), expires].join(".");
      return `${payload}.${signatureOf(payload).toString("base64url")}`;
    },

    /** The device's id when `value` is a cookie this server signed for `userId` and still valid; else null. */
    deviceFor(value: string | undefined, userId: string): string | null {
      if (!value || value.length > 300) return null;
      const parts = value.split(".");
      if (parts.length !== 5) return null;
      const [version, owner, nonce, expires, signature] = parts as [string, string, string, string, string];
      const expected = signatureOf(parts.slice(0, 4).join("."));
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if (version !== VERSION || owner !== userId) return null;
      if (!(Number(expires) > Math.floor(now() / 1000))) return null;
      return nonce;
    },
  };
}

export type DeviceCookies = ReturnType<typeof deviceCookies>;
