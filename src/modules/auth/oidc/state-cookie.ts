import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** What a sign-in in progress must remember until the provider sends the browser back. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** Epoch ms after which the answer is refused. */
  expiresAt: number;
}

export const OIDC_COOKIE = "di_oidc";
export const OIDC_COOKIE_PATH = "/api/auth/oidc";
export const OIDC_COOKIE_TTL_SECONDS = 600;

/**
 * Seals the pending sign-in into its cookie with AES-256-GCM under a key derived from the server
 * secret: the browser carries it but can neither read the PKCE verifier and nonce nor change any of
 * it (a changed byte fails the tag). Kept in the browser, not the database, so an abandoned sign-in
 * leaves nothing behind.
 */
export function pendingSignIns(secret: Uint8Array, now: () => number = Date.now) {
  const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "design-intel oidc pending sign-in", 32));
  return {
    seal(p: Omit<PendingSignIn, "expiresAt">): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = JSON.stringify({ ...p, expiresAt: now() + OIDC_COOKIE_TTL_SECONDS * 1000 });
      const sealed = Buffer.concat([cipher.update(body, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
    },
    /** The pending sign-in, or null when the cookie was not sealed here, was altered or has expired. */
    open(value: string): PendingSignIn | null {
      try {
        const raw = Buffer.from(value, "base64url");
        if (raw.length < 29) return null;
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const body = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
        const p = JSON.parse(body) as PendingSignIn;
        return typeof p.state === "string" && typeof p.nonce === "string" && typeof p.verifier === "string" && p.expiresAt > now()
          ? p
          : null;
      } catch {
        return null;
      }
    },
  };
}
